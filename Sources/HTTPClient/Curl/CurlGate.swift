internal import CCurl
import Foundation

/// The one place libcurl's return codes become `HTTPClientError`s.
enum CurlGate {
    /// Checks a `curl_easy_setopt`; a refusal means this libcurl lacks a feature the client needs, or a value
    /// was rejected, and says which option.
    static func check(_ code: CURLcode, setting option: String) throws(HTTPClientError) {
        guard code != CURLE_OK else { return }
        let reason = String(cString: curl_easy_strerror(code))
        if code == CURLE_UNKNOWN_OPTION || code == CURLE_NOT_BUILT_IN {
            throw .unsupportedLibcurl(reason: "\(option): \(reason)")
        }
        throw .invalidConfiguration(field: option, reason: reason)
    }

    /// Checks a multi-handle call; these fail only on misuse or out of memory.
    static func check(_ code: CURLMcode, doing operation: String) throws(HTTPClientError) {
        guard code != CURLM_OK else { return }
        throw .transferFailed(server: "libcurl", code: Int(code.rawValue), detail: "\(operation): \(String(cString: curl_multi_strerror(code)))")
    }

    /// Classifies a finished transfer's failure; `detail` is libcurl's error buffer (or its generic text).
    static func error(for code: CURLcode, server: String, timeout: Duration, detail: String, overflowed: Bool = false, limit: Int = 0) -> HTTPClientError {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .connectFailed(server: server, detail: detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            .tlsFailed(server: server, detail: detail)
        case CURLE_WRITE_ERROR where overflowed:
            .responseTooLarge(server: server, limit: limit)
        case CURLE_OPERATION_TIMEDOUT:
            .timedOut(server: server, after: timeout, detail: detail)
        // CURLE_PARTIAL_FILE: how a client certificate refused after a TLS 1.3 handshake surfaces.
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            .connectionLost(server: server, detail: detail)
        default:
            .transferFailed(server: server, code: Int(code.rawValue), detail: detail)
        }
    }
}
