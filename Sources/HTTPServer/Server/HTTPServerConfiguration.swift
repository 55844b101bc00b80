import Foundation

/// Where the server listens and the limits that protect it; every default is safe on a laptop.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind. Defaults to loopback: a public interface must be asked for, since TLS is
    /// terminated by a reverse proxy in front of this server.
    public var hostname: String
    /// The TCP port; `0` lets the system choose one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Threads polling connections (epoll); handlers themselves run on Swift's concurrency pool.
    public var threadCount: Int
    /// Connections open at once, across all clients.
    public var connectionLimit: Int
    /// Connections open at once from one IP address; `nil` for no per-address limit.
    public var perIPConnectionLimit: Int?
    /// How long an idle connection (keep-alive or a slow client) stays open, and how long a request (head
    /// and body) may take to arrive, so a client trickling a byte at a time cannot hold a connection;
    /// whole seconds, `nil` for never.
    public var connectionTimeout: Duration?
    /// The default largest request body; larger bodies are refused with `413` before being buffered.
    /// Routes may set their own (`RouteOptions.maxBodySize`).
    public var maxBodySize: Int
    /// Memory per connection for the request line and headers (and read buffers); a request whose
    /// head does not fit is refused by the server with `431` or `414` before any handler runs.
    public var maxHeaderSize: Int
    /// How long a handler may take before the client gets `503` (the handler's task is cancelled).
    public var requestTimeLimit: Duration
    /// How long shutdown waits for in-flight requests before answering them `503` and closing.
    public var shutdownGracePeriod: Duration

    /// Creates a configuration.
    public init(
        hostname: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int? = nil,
        connectionTimeout: Duration? = .seconds(30),
        maxBodySize: Int = 1 << 20,
        maxHeaderSize: Int = 32 << 10,
        requestTimeLimit: Duration = .seconds(30),
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.hostname = hostname
        self.port = port
        self.threadCount = threadCount
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.requestTimeLimit = requestTimeLimit
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
