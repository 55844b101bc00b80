import Foundation
import HTTPClient
import Synchronization

/// Pushes pass updates for one pass type identity over long-lived HTTP/2 connections (one by
/// default, `APNsConfiguration.connections`).
///
/// Make one client per Pass Type ID certificate and keep it: concurrent `send`s become streams of the
/// same connections (APNs treats opening a connection per push as abuse, Apple's APNs documentation), at most
/// `maxConcurrentStreams` or the server's `SETTINGS_MAX_CONCURRENT_STREAMS` at once on each, the rest
/// queued. After a GOAWAY the next push opens a fresh connection by itself. Each connection is an
/// `HTTPClient` of its own (one thread each); `send` only queues and awaits.
public final class APNsClient: Sendable {
    private let configuration: APNsConfiguration
    /// One per connection; pushes take turns.
    private let connections: [HTTPClient]
    private let turn = Atomic<Int>(0)

    /// Validates the configuration and starts the client's thread; nothing connects until the first push.
    public init(configuration: APNsConfiguration = APNsConfiguration(), credentials: APNsCredentials) throws(APNsError) {
        guard configuration.url.scheme?.lowercased() == "https", configuration.url.host != nil else {
            throw .invalidConfiguration(field: "url", reason: "must be an https:// origin such as https://api.push.apple.com, got '\(configuration.url.absoluteString)'")
        }
        guard configuration.url.path.isEmpty || configuration.url.path == "/" else {
            throw .invalidConfiguration(field: "url", reason: "must have no path (the client adds /3/device/<token>), got '\(configuration.url.path)'")
        }
        guard configuration.maxConcurrentStreams >= 1 else {
            throw .invalidConfiguration(field: "maxConcurrentStreams", reason: "must be at least 1, got \(configuration.maxConcurrentStreams)")
        }
        guard (1...16).contains(configuration.connections) else {
            throw .invalidConfiguration(field: "connections", reason: "must be 1 to 16, got \(configuration.connections)")
        }
        guard configuration.requestTimeout >= .milliseconds(1) else {
            throw .invalidConfiguration(field: "requestTimeout", reason: "must be at least 1 ms, got \(configuration.requestTimeout)")
        }
        guard configuration.expiration >= .zero else {
            throw .invalidConfiguration(field: "expiration", reason: "must not be negative, got \(configuration.expiration)")
        }
        guard !credentials.certificatePEM.isEmpty, !credentials.privateKeyPEM.isEmpty else {
            throw .invalidConfiguration(field: "credentials", reason: "the certificate and the private key must both be present")
        }
        self.configuration = configuration
        let connection = HTTPClientConfiguration(
            schemes: ["https"], version: .http2, caFile: configuration.caFile,
            identity: credentials,
            maxConcurrentStreams: configuration.maxConcurrentStreams,
            // One connection per client: when its streams are all busy, pushes queue for a free stream
            // instead of opening more connections (APNs treats connection churn as abuse).
            maxHostConnections: 1,
            requestTimeout: configuration.requestTimeout,
            maxResponseBody: 64 << 10,
            threadName: "apns-curl-multi"
        )
        var connections: [HTTPClient] = []
        for _ in 0..<configuration.connections {
            do {
                connections.append(try HTTPClient(configuration: connection))
            } catch {
                throw APNsError(error)
            }
        }
        self.connections = connections
    }

    /// Sends one pass-update push (`POST /3/device/<pushToken>`, `apns-topic: <topic>`, background,
    /// priority 5, body `{}`) and returns APNs's answer; its `outcome` says what to do next.
    ///
    /// Throws only when there is no answer: connection, TLS, timeout or a lost connection, with
    /// libcurl's explanation; or a token or topic that cannot be sent. Task cancellation does not
    /// abort a push already queued: it ends with its answer or after `requestTimeout`.
    public func send(pushToken: String, topic: String) async throws(APNsError) -> APNsResponse {
        let request = try APNsRequest(
            origin: configuration.url, pushToken: pushToken, topic: topic,
            expiration: configuration.expiration, now: Date()
        )
        let connection = connections[turn.add(1, ordering: .relaxed).oldValue % connections.count]
        do {
            return APNsResponse(try await connection.send(request.httpRequest))
        } catch {
            throw APNsError(error)
        }
    }

    /// How many connections the client has opened so far: 1 while a single connection carries every
    /// push, growing only on reconnects. Lets tests and metrics catch connection churn.
    public var connectionsOpened: Int { connections.reduce(0) { $0 + $1.connectionsOpened } }

    /// Lets pushes in flight finish (each within `requestTimeout`), refuses new ones with
    /// `APNsError.shutDown`, closes the connection and ends the thread. Call it when the identity is
    /// retired or its certificate was refused (Apple: close all connections after a revocation).
    public func shutdown() async {
        for connection in connections { await connection.shutdown() }
    }
}
