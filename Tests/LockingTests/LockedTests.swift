import Foundation
import Locking
import Testing

@Suite("Locked")
struct LockedTests {
    @Test("eight threads adding 20,000 times each lose no update")
    func concurrentUpdatesAllLand() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    @Test("a throwing body leaves the value as it changed it and the lock free")
    func throwingBodyReleasesTheLock() {
        struct Refused: Error {}
        let names = Locked<[String]>([])
        #expect(throws: Refused.self) {
            try names.withLock { (names) throws(Refused) in
                names.append("kept")
                throw Refused()
            }
        }
        // A lock still held would deadlock here.
        #expect(names.withLock { $0 } == ["kept"])
    }

    @Test("a non-copyable value can be kept and changed in place")
    func nonCopyableValue() {
        struct Handle: ~Copyable {
            var uses = 0
        }
        let handle = Locked(Handle())
        handle.withLock { $0.uses += 1 }
        handle.withLock { $0.uses += 1 }
        #expect(handle.withLock { $0.uses } == 2)
    }
}
