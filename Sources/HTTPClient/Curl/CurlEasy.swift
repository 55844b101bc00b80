internal import CCurl
import Foundation

/// Owns one libcurl easy handle set up for one request, its header list and error buffer, and collects
/// the answer the callbacks deliver. Freed in `deinit`.
///
/// Once submitted it is touched only by the multi loop's thread (setup happens before, on the caller's).
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The response as the header and write callbacks receive it.
    var response = ResponseProgress()
    /// The most body bytes kept; the write callback refuses more (`bodyOverflowed`).
    let maxResponseBody: Int
    /// Set by the write callback when the body went past `maxResponseBody`.
    var bodyOverflowed = false

    init(request: HTTPClientRequest, configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        try CurlGlobal.ensureReady()
        guard let scheme = request.url.scheme?.lowercased(), configuration.schemes.contains(scheme), request.url.host != nil else {
            throw .invalidRequest(field: "url", reason: "must be an absolute \(configuration.schemes.sorted().joined(separator: " or ")) URL, got '\(HTTPClient.origin(of: request.url))'")
        }
        guard let handle = curl_easy_init() else {
            throw .unsupportedLibcurl(reason: "curl_easy_init returned no handle (out of memory?)")
        }
        self.handle = handle
        maxResponseBody = configuration.maxResponseBody
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        for (name, value) in request.headers {
            guard !name.isEmpty, !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }), !name.contains(":") else {
                throw .invalidRequest(field: "headers", reason: "'\(name)' is not a header name and value without line breaks")
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                throw .unsupportedLibcurl(reason: "curl_slist_append returned nothing (out of memory?)")
            }
            headerList = appended
        }
        try configure(request: request, configuration: configuration)
    }

    private func configure(request: HTTPClientRequest, configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        try setLong(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), setting: "CURLOPT_ERRORBUFFER")
        try setString(CURLOPT_URL, request.url.absoluteString, "CURLOPT_URL")
        try setString(CURLOPT_PROTOCOLS_STR, configuration.schemes.sorted().joined(separator: ","), "CURLOPT_PROTOCOLS_STR")
        switch configuration.version {
        case .http1_1: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1, "CURLOPT_HTTP_VERSION")
        case .http2: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS, "CURLOPT_HTTP_VERSION")
        }
        // Wait for the connection being set up rather than open another, so concurrent requests become
        // streams of one HTTP/2 connection.
        try setLong(CURLOPT_PIPEWAIT, 1, "CURLOPT_PIPEWAIT")
        try setLong(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        let (seconds, attoseconds) = configuration.requestTimeout.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        try setLong(CURLOPT_TIMEOUT_MS, milliseconds, "CURLOPT_TIMEOUT_MS")
        try setLong(CURLOPT_CONNECTTIMEOUT_MS, milliseconds, "CURLOPT_CONNECTTIMEOUT_MS")
        try CurlGate.check(passwright_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), setting: "CURLOPT_HTTPHEADER")
        try configureMethod(request)
        if let address = request.pinnedAddress, let host = request.url.host {
            let port = request.url.port ?? (request.url.scheme?.lowercased() == "https" ? 443 : 80)
            let literal = address.contains(":") ? "[\(address)]" : address
            resolveList = curl_slist_append(nil, "\(host):\(port):\(literal)")
            try CurlGate.check(passwright_curl_easy_setopt_slist(handle, CURLOPT_RESOLVE, resolveList), setting: "CURLOPT_RESOLVE")
        }

        if let identity = configuration.identity {
            try setBlob(CURLOPT_SSLCERT_BLOB, identity.certificatePEM, "CURLOPT_SSLCERT_BLOB")
            try setString(CURLOPT_SSLCERTTYPE, "PEM", "CURLOPT_SSLCERTTYPE")
            try setBlob(CURLOPT_SSLKEY_BLOB, identity.privateKeyPEM, "CURLOPT_SSLKEY_BLOB")
            try setString(CURLOPT_SSLKEYTYPE, "PEM", "CURLOPT_SSLKEYTYPE")
            if let password = identity.privateKeyPassword {
                try setString(CURLOPT_KEYPASSWD, password, "CURLOPT_KEYPASSWD")
            }
        }
        if let caFile = configuration.caFile {
            try setString(CURLOPT_CAINFO, caFile.path, "CURLOPT_CAINFO")
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try CurlGate.check(passwright_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), setting: "CURLOPT_WRITEFUNCTION")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), setting: "CURLOPT_WRITEDATA")
        try CurlGate.check(passwright_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, curlReceiveHeader), setting: "CURLOPT_HEADERFUNCTION")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), setting: "CURLOPT_HEADERDATA")
    }

    /// The method and body: GET and HEAD by their own options, anything else as a custom request whose
    /// body libcurl copies (so the request's bytes need not outlive this call).
    private func configureMethod(_ request: HTTPClientRequest) throws(HTTPClientError) {
        let method = request.method.uppercased()
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter }) else {
            throw .invalidRequest(field: "method", reason: "'\(request.method)' is not an HTTP method")
        }
        switch method {
        case "GET": try setLong(CURLOPT_HTTPGET, 1, "CURLOPT_HTTPGET")
        case "HEAD": try setLong(CURLOPT_NOBODY, 1, "CURLOPT_NOBODY")
        default:
            let length = request.body?.count ?? 0
            try setLong(CURLOPT_POSTFIELDSIZE_LARGE, length, "CURLOPT_POSTFIELDSIZE_LARGE")
            // One byte stands in for an empty body: libcurl needs a pointer, and copies `length` bytes.
            var bytes = length > 0 ? request.body! : Data([0])
            // COPYPOSTFIELDS (not POSTFIELDS): libcurl copies the bytes before returning.
            let code = bytes.withUnsafeMutableBytes { buffer in
                passwright_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, buffer.baseAddress!)
            }
            try CurlGate.check(code, setting: "CURLOPT_COPYPOSTFIELDS")
            if method != "POST" { try setString(CURLOPT_CUSTOMREQUEST, method, "CURLOPT_CUSTOMREQUEST") }
        }
    }

    /// The HTTP status of the finished transfer.
    var responseCode: Int {
        var code = 0
        _ = passwright_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// How many new connections this transfer had to open (0 when it reused one).
    var connectionsOpened: Int {
        var count = 0
        _ = passwright_curl_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &count)
        return count
    }

    /// libcurl's specific message for a failure, falling back to the generic text of the code.
    func failureDetail(_ code: CURLcode) -> String {
        let specific = String(cString: errorBuffer)
        return specific.isEmpty ? String(cString: curl_easy_strerror(code)) : specific
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    private func setLong(_ option: CURLoption, _ value: Int, _ name: String) throws(HTTPClientError) {
        try CurlGate.check(passwright_curl_easy_setopt_long(handle, option, value), setting: name)
    }

    private func setString(_ option: CURLoption, _ value: String, _ name: String) throws(HTTPClientError) {
        // libcurl copies string options (since 7.17), so the temporary C string may go after the call.
        try CurlGate.check(passwright_curl_easy_setopt_string(handle, option, value), setting: name)
    }

    private func setBlob(_ option: CURLoption, _ bytes: Data, _ name: String) throws(HTTPClientError) {
        var bytes = bytes
        let code = bytes.withUnsafeMutableBytes { buffer in
            // CURL_BLOB_COPY: libcurl copies the bytes before returning, so the buffer only needs to
            // live for this call, and the key stays in memory only.
            var blob = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
            return passwright_curl_easy_setopt_blob(handle, option, &blob)
        }
        try CurlGate.check(code, setting: name)
    }
}
