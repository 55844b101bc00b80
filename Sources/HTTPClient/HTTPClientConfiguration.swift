import Foundation

/// How an `HTTPClient` connects: the protocol, trust, the client identity and the limits. Every request
/// of one client shares these, which is what lets libcurl keep reusing one connection per origin.
public struct HTTPClientConfiguration: Sendable {
    /// The HTTP version asked for.
    public enum Version: Sendable, Equatable {
        /// HTTP/1.1 only (webhook receivers, a deployment's own web service as Wallet reaches it).
        case http1_1
        /// HTTP/2 over TLS (APNs requires it), HTTP/1.1 where the server offers only that.
        case http2
    }

    /// The URL schemes requests may use: `https` alone for APNs, both where a user's URL is checked.
    public var schemes: Set<String>
    public var version: Version
    /// A PEM file of CA certificates to trust instead of the system's; `nil` trusts the system store.
    public var caFile: URL?
    /// The TLS client certificate and key (APNs' certificate authentication); `nil` for none.
    public var identity: HTTPClientIdentity?
    /// The most requests in flight at once on one HTTP/2 connection; the server's SETTINGS may lower it.
    public var maxConcurrentStreams: Int
    /// The most connections open to one host at once: `1` makes concurrent requests streams of one
    /// HTTP/2 connection (or a queue on HTTP/1.1) instead of new connections.
    public var maxHostConnections: Int
    /// How long one request may take from being queued to its answer, connecting included.
    public var requestTimeout: Duration
    /// The largest response body kept; a longer one fails the request (`HTTPClientError.responseTooLarge`).
    public var maxResponseBody: Int
    /// The name of the thread driving the connections (shows in `top -H` and crash reports).
    public var threadName: String

    /// A client for one purpose; the defaults suit checking a public HTTPS endpoint.
    public init(
        schemes: Set<String> = ["https"],
        version: Version = .http1_1,
        caFile: URL? = nil,
        identity: HTTPClientIdentity? = nil,
        maxConcurrentStreams: Int = 100,
        maxHostConnections: Int = 1,
        requestTimeout: Duration = .seconds(30),
        maxResponseBody: Int = 16 << 20,
        threadName: String = "http-client"
    ) {
        self.schemes = schemes
        self.version = version
        self.caFile = caFile
        self.identity = identity
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxHostConnections = maxHostConnections
        self.requestTimeout = requestTimeout
        self.maxResponseBody = maxResponseBody
        self.threadName = threadName
    }
}

/// A TLS client certificate (optionally followed by intermediates) and its private key (PKCS#8 or
/// traditional, encrypted or not) as PEM bytes in memory, handed to libcurl as blobs so the key is
/// never written to a file or put on a command line. Redacted when printed.
public struct HTTPClientIdentity: Sendable, CustomStringConvertible {
    public var certificatePEM: Data
    public var privateKeyPEM: Data
    public var privateKeyPassword: String?

    public init(certificatePEM: Data, privateKeyPEM: Data, privateKeyPassword: String? = nil) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyPassword = privateKeyPassword
    }

    public var description: String {
        "HTTPClientIdentity(certificate: \(certificatePEM.count) bytes, key: redacted)"
    }
}
