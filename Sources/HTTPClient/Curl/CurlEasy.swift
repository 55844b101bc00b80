internal import CCurl
import Foundation

/// Owns one libcurl easy handle, set up once with its client's options and then reused request after
/// request (``CurlEasyPool``): each request only sets what is its own, ``prepare(_:)``. It also keeps
/// the request's header list and error buffer and collects the answer the callbacks deliver. Freed in
/// `deinit`.
///
/// Reused because a handle made and freed for every request was a sixth of a push fan-out's CPU
/// (`Benchmarks/push.sh`: `curl_easy_init`, the client identity's certificate and key copied in
/// again, `curl_easy_cleanup`), and libcurl's own advice is to reuse handles.
///
/// `@unchecked Sendable`: one thread at a time uses it — the caller preparing it, then the multi
/// loop's thread while it runs — handed over through the loop's and the pool's locks.
final class CurlEasy: @unchecked Sendable {
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
    /// The URL schemes the client allows, checked for each request.
    private let schemes: Set<String>

    /// A handle with the options every request of a client shares; ``prepare(_:)`` adds a request's own.
    init(configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        try CurlGlobal.ensureReady()
        guard let handle = curl_easy_init() else {
            throw .unsupportedLibcurl(reason: "curl_easy_init returned no handle (out of memory?)")
        }
        self.handle = handle
        maxResponseBody = configuration.maxResponseBody
        schemes = configuration.schemes
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure(configuration)
    }

    private func configure(_ configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        try setLong(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), setting: "CURLOPT_ERRORBUFFER")
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

    /// Sets everything that is one request's own — URL, method, body, headers, pinned address — over
    /// whatever the handle's last request left, and forgets that request's answer. A handle whose
    /// `prepare` threw is not reused.
    func prepare(_ request: HTTPClientRequest) throws(HTTPClientError) {
        guard let scheme = request.url.scheme?.lowercased(), schemes.contains(scheme), request.url.host != nil else {
            throw .invalidRequest(field: "url", reason: "must be an absolute \(schemes.sorted().joined(separator: " or ")) URL, got '\(HTTPClient.origin(of: request.url))'")
        }
        response = ResponseProgress()
        bodyOverflowed = false
        errorBuffer[0] = 0
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }  // whichever list is not the handle's at the end
        for (name, value) in request.headers {
            // Checked on the UTF-8 bytes: by Character (and Foundation's `contains`) it was a few
            // percent of a push fan-out's CPU.
            guard !name.isEmpty, !name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 58 }),
                  !value.utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
                throw .invalidRequest(field: "headers", reason: "'\(name)' is not a header name and value without line breaks")
            }
            guard let appended = curl_slist_append(headers, "\(name): \(value)") else {
                throw .unsupportedLibcurl(reason: "curl_slist_append returned nothing (out of memory?)")
            }
            headers = appended
        }
        try CurlGate.check(passwright_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headers), setting: "CURLOPT_HTTPHEADER")
        swap(&headers, &headerList)
        try setString(CURLOPT_URL, request.url.absoluteString, "CURLOPT_URL")
        try configureMethod(request)
        var resolve: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolve) }
        if let address = request.pinnedAddress, let host = request.url.host {
            let port = request.url.port ?? (request.url.scheme?.lowercased() == "https" ? 443 : 80)
            let literal = address.contains(":") ? "[\(address)]" : address
            resolve = curl_slist_append(nil, "\(host):\(port):\(literal)")
        }
        try CurlGate.check(passwright_curl_easy_setopt_slist(handle, CURLOPT_RESOLVE, resolve), setting: "CURLOPT_RESOLVE")
        swap(&resolve, &resolveList)
    }

    /// The method and body: GET and HEAD by their own options, anything else as a custom request whose
    /// body libcurl copies (so the request's bytes need not outlive this call). What a previous
    /// request set (HEAD's no-body, a custom method) is cleared first.
    private func configureMethod(_ request: HTTPClientRequest) throws(HTTPClientError) {
        let method = request.method.uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw .invalidRequest(field: "method", reason: "'\(request.method)' is not an HTTP method")
        }
        try setLong(CURLOPT_NOBODY, 0, "CURLOPT_NOBODY")
        try CurlGate.check(passwright_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, nil), setting: "CURLOPT_CUSTOMREQUEST")
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
