import Foundation

/// Sends HTTP requests over libcurl from async code: APNs pushes over one long-lived HTTP/2
/// connection, webhook deliveries, a deployment's endpoints checked from outside.
///
/// One client owns one libcurl multi handle and the thread that drives it; concurrent `send`s become
/// streams of the same HTTP/2 connection (or wait their turn on HTTP/1.1) up to
/// `maxHostConnections` connections per host. Keep a client as long as its configuration holds: a
/// connection lives as long as its client. `send` only queues and awaits.
public final class HTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    private let loop: CurlMultiLoop
    private let handles: CurlEasyPool

    /// Checks the configuration and starts the client's thread; nothing connects until the first request.
    public init(configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        guard configuration.maxConcurrentStreams >= 1 else {
            throw .invalidConfiguration(field: "maxConcurrentStreams", reason: "must be at least 1, got \(configuration.maxConcurrentStreams)")
        }
        guard configuration.maxHostConnections >= 1 else {
            throw .invalidConfiguration(field: "maxHostConnections", reason: "must be at least 1, got \(configuration.maxHostConnections)")
        }
        guard configuration.requestTimeout >= .milliseconds(1) else {
            throw .invalidConfiguration(field: "requestTimeout", reason: "must be at least 1 ms, got \(configuration.requestTimeout)")
        }
        guard !configuration.schemes.isEmpty, configuration.schemes.isSubset(of: ["http", "https"]) else {
            throw .invalidConfiguration(field: "schemes", reason: "must be http, https or both, got \(configuration.schemes.sorted())")
        }
        self.configuration = configuration
        handles = CurlEasyPool(configuration: configuration)
        loop = try CurlMultiLoop(configuration: configuration)
    }

    /// Sends one request and returns the answer, whatever its status.
    ///
    /// Throws only when there is no answer (connection, TLS, timeout, a lost connection, with
    /// libcurl's explanation) or the request cannot be sent. Task cancellation does not abort a
    /// request already queued: it ends with its answer or after `requestTimeout`.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let easy = try handles.take(for: request)
        let server = Self.origin(of: request.url)
        let result = await withCheckedContinuation { continuation in
            let transfer = CurlTransfer(easy: easy, pool: handles, server: server, timeout: configuration.requestTimeout, continuation: continuation)
            if !loop.submit(transfer) { transfer.fail(.shutDown) }
        }
        return try result.get()
    }

    /// How many connections the client has opened so far: 1 while one connection carries every
    /// request, growing only on reconnects. Lets tests and metrics catch connection churn.
    public var connectionsOpened: Int { loop.connectionsOpened }

    /// How many easy handles wait, set up, for the next request (at most the client's streams).
    var idleHandles: Int { handles.idleCount }

    /// Lets requests in flight finish (each within `requestTimeout`), refuses new ones with
    /// `HTTPClientError.shutDown`, closes the connections and ends the thread.
    public func shutdown() async {
        await loop.stopAndWait()
    }

    deinit {
        loop.stop()
    }

    /// `scheme://host[:port]`, how errors name the server (never the path, which may hold a token).
    static func origin(of url: URL) -> String {
        var text = "\(url.scheme ?? "?")://\(url.host ?? "?")"
        if let port = url.port { text += ":\(port)" }
        return text
    }
}
