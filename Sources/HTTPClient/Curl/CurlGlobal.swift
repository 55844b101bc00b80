internal import CCurl

/// libcurl's process-wide set-up, done once before the first handle, and the check that this libcurl
/// can speak HTTP/2 over TLS at all.
enum CurlGlobal {
    /// `curl_global_init` is not thread-safe; a `static let` runs it exactly once, under Swift's lock.
    private static let readiness: Result<Void, HTTPClientError> = {
        let code = curl_global_init(Int(CURL_GLOBAL_ALL))
        guard code == CURLE_OK else {
            return .failure(.unsupportedLibcurl(reason: "curl_global_init: \(String(cString: curl_easy_strerror(code)))"))
        }
        // CURLVERSION_NOW is a macro Swift cannot import; ELEVENTH is what libcurl 7.88 defines it as.
        guard let info = curl_version_info(CURLVERSION_ELEVENTH) else {
            return .failure(.unsupportedLibcurl(reason: "curl_version_info returned nothing"))
        }
        let version = String(cString: info.pointee.version)
        guard info.pointee.features & CURL_VERSION_HTTP2 != 0 else {
            return .failure(.unsupportedLibcurl(reason: "libcurl \(version) was built without HTTP/2"))
        }
        guard info.pointee.features & CURL_VERSION_SSL != 0 else {
            return .failure(.unsupportedLibcurl(reason: "libcurl \(version) was built without TLS"))
        }
        return .success(())
    }()

    /// Initialises libcurl on first use; throws if it cannot speak HTTP/2 over TLS.
    static func ensureReady() throws(HTTPClientError) {
        try readiness.get()
    }
}
