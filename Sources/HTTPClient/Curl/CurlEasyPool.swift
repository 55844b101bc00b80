import Locking

/// The easy handles of one client that are set up and idle, so a request takes one instead of making
/// its own (see ``CurlEasy`` for why).
///
/// Holds at most `capacity` (the client's streams on all its connections): a handle coming back to
/// a full pool is freed. Only handles whose transfer libcurl ended without an error come back; after
/// any other ending the handle is freed, so nothing a failed transfer left in it can reach the next
/// request.
final class CurlEasyPool: Sendable {
    private let idle = Locked<[CurlEasy]>([])
    private let configuration: HTTPClientConfiguration
    private let capacity: Int

    init(configuration: HTTPClientConfiguration) {
        self.configuration = configuration
        capacity = configuration.maxConcurrentStreams * configuration.maxHostConnections
    }

    /// An idle handle, or a new one, prepared for `request`.
    func take(for request: HTTPClientRequest) throws(HTTPClientError) -> CurlEasy {
        let easy: CurlEasy
        if let reused = idle.withLock({ $0.popLast() }) { easy = reused } else { easy = try CurlEasy(configuration: configuration) }
        try easy.prepare(request)
        return easy
    }

    /// Keeps a handle whose transfer is over (and which is off the multi handle) for the next request.
    func giveBack(_ easy: CurlEasy) {
        idle.withLock { idle in
            if idle.count < capacity { idle.append(easy) }
        }
    }

    /// How many handles are idle: lets tests see that handles are reused.
    var idleCount: Int { idle.withLock { $0.count } }
}
