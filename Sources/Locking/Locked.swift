import Foundation

/// A value behind a lock: what every shared mutable state in Passwright is kept in.
///
/// It replaces `Synchronization.Mutex`, whose Linux implementation hands a contended lock over inside
/// the kernel (`FUTEX_LOCK_PI`): ThreadSanitizer cannot see that hand-over and reports every contended
/// critical section as a data race, which would hide real races in the sanitizer runs. `NSLock` is a
/// `pthread_mutex_t`, which ThreadSanitizer understands, and uncontended it costs about the same.
///
/// The signatures follow `Mutex`: the value goes in and out as `sending`, so a non-`Sendable` value
/// can be kept here and only ever touched under the lock.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {  // @unchecked: `value` is only reached under `lock`
    private let lock = NSLock()
    private var value: Value

    /// Keeps `initialValue` behind the lock.
    public init(_ initialValue: consuming sending Value) {
        value = initialValue
    }

    /// Runs `body` with exclusive access to the value; other callers wait until it returns.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
