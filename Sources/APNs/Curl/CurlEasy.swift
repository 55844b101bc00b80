internal import CCurl
import Foundation

/// Owns one libcurl easy handle set up for one push, its header list and error buffer, and collects
/// the answer the callbacks deliver. Freed in `deinit`.
///
/// Once submitted it is touched only by the multi loop's thread (setup happens before, on the caller's).
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The response as the header and write callbacks receive it.
    var response = ResponseProgress()

    init(request: APNsRequest, identity: CurlIdentity) throws(APNsError) {
        try CurlGlobal.ensureReady()
        guard let handle = curl_easy_init() else {
            throw .unsupportedLibcurl(reason: "curl_easy_init returned no handle (out of memory?)")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        for line in request.headers {
            guard let appended = curl_slist_append(headerList, line) else {
                throw .unsupportedLibcurl(reason: "curl_slist_append returned nothing (out of memory?)")
            }
            headerList = appended
        }
        try configure(request: request, identity: identity)
    }

    private func configure(request: APNsRequest, identity: CurlIdentity) throws(APNsError) {
        try setLong(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), setting: "CURLOPT_ERRORBUFFER")
        try setString(CURLOPT_URL, request.url, "CURLOPT_URL")
        try setString(CURLOPT_PROTOCOLS_STR, "https", "CURLOPT_PROTOCOLS_STR")
        try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS, "CURLOPT_HTTP_VERSION")
        // Wait for the connection being set up rather than open another, so concurrent pushes become
        // streams of one HTTP/2 connection.
        try setLong(CURLOPT_PIPEWAIT, 1, "CURLOPT_PIPEWAIT")
        try setLong(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        try setLong(CURLOPT_TIMEOUT_MS, identity.timeoutMilliseconds, "CURLOPT_TIMEOUT_MS")
        try setLong(CURLOPT_CONNECTTIMEOUT_MS, identity.timeoutMilliseconds, "CURLOPT_CONNECTTIMEOUT_MS")
        try CurlGate.check(passwright_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), setting: "CURLOPT_HTTPHEADER")
        // COPYPOSTFIELDS (not POSTFIELDS): libcurl keeps its own copy, and it implies POST.
        try setString(CURLOPT_COPYPOSTFIELDS, request.body, "CURLOPT_COPYPOSTFIELDS")

        try setBlob(CURLOPT_SSLCERT_BLOB, identity.certificatePEM, "CURLOPT_SSLCERT_BLOB")
        try setString(CURLOPT_SSLCERTTYPE, "PEM", "CURLOPT_SSLCERTTYPE")
        try setBlob(CURLOPT_SSLKEY_BLOB, identity.privateKeyPEM, "CURLOPT_SSLKEY_BLOB")
        try setString(CURLOPT_SSLKEYTYPE, "PEM", "CURLOPT_SSLKEYTYPE")
        if let password = identity.privateKeyPassword {
            try setString(CURLOPT_KEYPASSWD, password, "CURLOPT_KEYPASSWD")
        }
        if let caFile = identity.caFile {
            try setString(CURLOPT_CAINFO, caFile, "CURLOPT_CAINFO")
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try CurlGate.check(passwright_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), setting: "CURLOPT_WRITEFUNCTION")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), setting: "CURLOPT_WRITEDATA")
        try CurlGate.check(passwright_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, curlReceiveHeader), setting: "CURLOPT_HEADERFUNCTION")
        try CurlGate.check(passwright_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), setting: "CURLOPT_HEADERDATA")
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
        errorBuffer.deallocate()
    }

    private func setLong(_ option: CURLoption, _ value: Int, _ name: String) throws(APNsError) {
        try CurlGate.check(passwright_curl_easy_setopt_long(handle, option, value), setting: name)
    }

    private func setString(_ option: CURLoption, _ value: String, _ name: String) throws(APNsError) {
        // libcurl copies string options (since 7.17), so the temporary C string may go after the call.
        try CurlGate.check(passwright_curl_easy_setopt_string(handle, option, value), setting: name)
    }

    private func setBlob(_ option: CURLoption, _ bytes: Data, _ name: String) throws(APNsError) {
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
