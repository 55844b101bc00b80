import Foundation

/// Where and how an `APNsClient` pushes; the defaults are Apple's production service, the only one
/// that delivers pass updates (Apple's APNs documentation: the sandbox does not work for passes).
public struct APNsConfiguration: Sendable, Equatable {
    /// The APNs origin, without a path. Production is `https://api.push.apple.com` (port 443; 2197 also
    /// works where 443 is blocked). Tests point it at a local stand-in.
    public var url: URL
    /// A PEM file of CA certificates to trust instead of the system's, so tests can run a server with a
    /// certificate from their own CA. `nil` (the default) trusts the system store, as production needs.
    public var caFile: URL?
    /// The most requests in flight at once on the one HTTP/2 connection (streams). This is only an upper
    /// bound: the server's `SETTINGS_MAX_CONCURRENT_STREAMS` bounds it too, and libcurl honours whichever
    /// is lower, queueing the rest until a stream frees (APNs varies its limit, Apple's APNs documentation). On a new
    /// connection, libcurl may open streams before the server's SETTINGS arrive; this value also bounds
    /// that first burst.
    public var maxConcurrentStreams: Int
    /// How many HTTP/2 connections the client keeps, each driven by a thread of its own; pushes take
    /// turns. One thread sending every push's frames tops out near one core, so a large fan-out wants
    /// a few (Apple's APNs documentation allows several connections to improve performance). Each
    /// connection has its own `maxConcurrentStreams`.
    public var connections: Int
    /// How long one push may take from being queued to its answer, connecting and waiting for a free
    /// stream included; past it `send` throws `APNsError.timedOut`.
    public var requestTimeout: Duration
    /// How long APNs keeps a push for a device that is offline: `apns-expiration` is now plus this.
    /// A day lets a phone that was off overnight still refresh its passes (Apple's APNs documentation); zero means
    /// "try once, don't store".
    public var expiration: Duration

    /// Production defaults: Apple's host, the system's trust store, one connection of 100 streams,
    /// 30 s per push, 24 h expiry.
    public init(
        url: URL = URL(string: "https://api.push.apple.com")!,
        caFile: URL? = nil,
        maxConcurrentStreams: Int = 100,
        connections: Int = 1,
        requestTimeout: Duration = .seconds(30),
        expiration: Duration = .seconds(24 * 60 * 60)
    ) {
        self.url = url
        self.caFile = caFile
        self.maxConcurrentStreams = maxConcurrentStreams
        self.connections = connections
        self.requestTimeout = requestTimeout
        self.expiration = expiration
    }
}
