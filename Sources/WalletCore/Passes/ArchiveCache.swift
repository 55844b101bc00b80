import Locking
import Foundation
import PassModel
import WalletStore

/// Signed archives of recently fetched passes, keyed by pass, update tag and template version, so a device fetching an
/// unchanged pass (or many devices fetching the same update) costs a lookup instead of a signature.
/// Bounded: the least recently used entry goes first.
final class ArchiveCache: Sendable {
    private struct Entry {
        let tag: Int64
        let templateVersion: Int64
        let archive: Data
        var lastUse: UInt64
    }

    private struct State {
        var entries: [PassKey: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    func archive(for pass: StoredPass) -> Data? {
        state.withLock { state in
            guard var entry = state.entries[pass.key], entry.tag == pass.updateTag,
                  entry.templateVersion == pass.templateVersion else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[pass.key] = entry
            return entry.archive
        }
    }

    func store(_ archive: Data, for pass: StoredPass) {
        state.withLock { state in
            state.clock += 1
            state.entries[pass.key] = Entry(tag: pass.updateTag, templateVersion: pass.templateVersion, archive: archive, lastUse: state.clock)
            if state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries[oldest] = nil
            }
        }
    }

    /// Drops the pass's archive: after an erasure no copy of the old record may stay, in memory either.
    func forget(_ key: PassKey) {
        state.withLock { _ = $0.entries.removeValue(forKey: key) }
    }
}
