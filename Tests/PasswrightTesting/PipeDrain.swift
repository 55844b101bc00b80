import Foundation
import Locking
import Synchronization

/// Reads one pipe to its end on its own thread, keeping what arrived so far readable, so a child
/// writing a lot to both stdout and stderr never deadlocks on a full pipe.
final class PipeDrain: Sendable {
    private let bytes = Locked(Data())
    private let finished = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes.withLock { $0.append(chunk) }
            }
            finished.store(true, ordering: .sequentiallyConsistent)
            done.signal()
        }.start()
    }

    /// Whether the writer has closed the pipe.
    var isFinished: Bool { finished.load(ordering: .sequentiallyConsistent) }

    /// Everything read so far.
    func snapshot() -> Data { bytes.withLock { $0 } }

    /// Blocks until the writer closed the pipe, then returns everything read.
    func wait() -> Data {
        done.wait()
        done.signal()
        return snapshot()
    }
}
