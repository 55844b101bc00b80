import Dispatch
import Foundation

/// Turns signals into awaitable events: SIGINT/SIGTERM, so `serve` can cancel its task group and
/// drain instead of dying mid-request; SIGHUP, so it re-imports its template folders.
enum SignalWatcher {
    /// Returns when one of `signals` arrives (or the task is cancelled).
    static func wait(for signals: [Int32]) async {
        for await _ in stream(of: signals) { return }
    }

    /// Every arrival of one of `signals`, until the iterating task stops; the signals' default
    /// actions are off meanwhile.
    static func stream(of signals: [Int32]) -> AsyncStream<Int32> {
        AsyncStream<Int32> { continuation in
            let sources = signals.map { number -> DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            }
            let owned = OwnedSources(sources)
            continuation.onTermination = { _ in owned.cancel() }
        }
    }
}

/// Dispatch sources may be cancelled from any thread but are not marked `Sendable`; this immutable
/// holder only ever calls `cancel()` on them.
private final class OwnedSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
