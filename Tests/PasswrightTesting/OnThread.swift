import Foundation

/// Runs blocking work (a child process, a socket read) on a thread of its own and awaits it.
///
/// Never on the Swift concurrency pool: it has two threads on a two-core machine, and the in-process
/// servers' handlers need them, so one blocked read there could hang a whole suite.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
