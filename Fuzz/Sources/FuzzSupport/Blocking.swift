import Foundation
import Locking

/// Waits for async work from libFuzzer's synchronous callback thread.
///
/// libFuzzer calls targets on its own thread, never on Swift's cooperative pool, so blocking that
/// thread on a semaphore cannot starve the tasks it waits for.
public func runBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<T?>(nil)
    Task {
        let value = await operation()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
