import Foundation
import Locking
import Testing

/// The permit belongs to the thread that was granted it, until revoked.
@Suite struct BlockingPermitTests {
    @Test func aPermitIsPerThreadAndEndsWhenRevoked() async {
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<[Bool], Never>) in
            Thread {
                var seen = [BlockingPermit.isGranted]
                BlockingPermit.grant()
                seen.append(BlockingPermit.isGranted)
                let elsewhere = DispatchSemaphore(value: 0)
                let probe = Locked(true)
                Thread {
                    probe.withLock { $0 = BlockingPermit.isGranted }
                    elsewhere.signal()
                }.start()
                elsewhere.wait()
                seen.append(probe.withLock { $0 })
                BlockingPermit.revoke()
                seen.append(BlockingPermit.isGranted)
                continuation.resume(returning: seen)
            }.start()
        }
        #expect(seen == [false, true, false, false], "not granted, granted, not on another thread, revoked")
    }
}
