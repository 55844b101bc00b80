import Foundation

/// Runs blocking or CPU-heavy work (DNS, a password hash) on a thread of its own, so the cooperative
/// pool, which every request shares, never waits on it.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
