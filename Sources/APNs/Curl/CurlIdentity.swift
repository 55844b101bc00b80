import Foundation

/// What every easy handle of one client shares: the TLS identity, trust and timeout. libcurl reuses a
/// connection only for transfers with identical TLS settings, which this guarantees.
struct CurlIdentity: Sendable {
    var certificatePEM: Data
    var privateKeyPEM: Data
    var privateKeyPassword: String?
    /// A file path for `CURLOPT_CAINFO`, or `nil` for the system trust store.
    var caFile: String?
    var timeoutMilliseconds: Int

    init(credentials: APNsCredentials, configuration: APNsConfiguration) {
        certificatePEM = credentials.certificatePEM
        privateKeyPEM = credentials.privateKeyPEM
        privateKeyPassword = credentials.privateKeyPassword
        caFile = configuration.caFile?.path
        let (seconds, attoseconds) = configuration.requestTimeout.components
        timeoutMilliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
