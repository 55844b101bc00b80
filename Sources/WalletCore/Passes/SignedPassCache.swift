import Locking
import Foundation
import PassCompiler
import PassModel
import WalletStore

/// Recently signed passes, keyed by pass, update tag and template version, so every device of a pass
/// fetching one update (and any device fetching an unchanged pass) costs a copy instead of a signature.
///
/// It keeps each pass's own part of its archive (``PackagedPass``: `pass.json`, manifest, signature
/// and the central directory, about 6 KB for the loyalty sample), not the template's files that
/// every archive of the version begins with (61 KB there), which all entries share. So a budget
/// holds ten times the passes, and what it must hold is every pass signed between a pass's push and
/// its devices' fetches, seconds of a wave (with whole archives, 128 MiB held 2,000 passes and a
/// 10,000-pass wave signed 1.4 times per pass; fleet benchmark, BENCHMARKS.md), while a hit is one
/// copy: keeping the signed parts instead and assembling the archive on each hit was half of a get
/// pass's CPU. Bounded by bytes; the least recently used entry goes first, in constant time: uses
/// are appended to a queue and an eviction skips slots a later use made stale.
final class SignedPassCache: Sendable {
    /// One build of a pass: what is signed changes exactly when its update tag or template version does.
    struct Version: Hashable, Sendable {
        let key: PassKey
        let tag: Int64
        let templateVersion: Int64

        init(key: PassKey, tag: Int64, templateVersion: Int64) {
            (self.key, self.tag, self.templateVersion) = (key, tag, templateVersion)
        }

        init(_ pass: StoredPass) {
            self.init(key: pass.key, tag: pass.updateTag, templateVersion: pass.templateVersion)
        }
    }

    private struct Entry {
        let version: Version
        let packaged: PackagedPass
        /// The queue position of its latest use; older slots of the same pass are stale.
        var stamp: UInt64
    }

    private struct State {
        var entries: [PassKey: Entry] = [:]
        /// Uses in order, oldest first from `head`: (pass, stamp).
        var queue: [(key: PassKey, stamp: UInt64)] = []
        var head = 0
        var clock: UInt64 = 0
        var statistics = SignedPassCacheStatistics()
        /// Erased passes and the tag of their erasure, oldest first (at most ``erasureMemory``): a
        /// build of an older version that was in flight during the erasure is not kept.
        var erased: [PassKey: Int64] = [:]
        var erasedOrder: [PassKey] = []

        mutating func use(_ key: PassKey) -> UInt64 {
            clock += 1
            queue.append((key, clock))
            return clock
        }

        /// Keeps only the live slots once the queue (evicted and stale slots included) is over twice
        /// the entries: hits do not grow it forever, and each slot is copied at most once on average.
        mutating func compact() {
            guard queue.count > 2 * entries.count + 64 else { return }
            queue = queue[head...].filter { entries[$0.key]?.stamp == $0.stamp }
            head = 0
        }
    }

    /// The budget unless serve's `--pass-cache` says otherwise: about 20,000 passes of ~6 KB each.
    static let defaultBudget = 128 << 20

    /// The most bytes of signed passes kept.
    let budget: Int
    private let state = Locked(State())

    /// A cache keeping at most `budget` bytes of signed passes (0 keeps none).
    init(budget: Int) {
        precondition(budget >= 0, "a cache budget is not negative")
        self.budget = budget
    }

    func packaged(_ version: Version) -> PackagedPass? {
        state.withLock { state in
            guard var entry = state.entries[version.key], entry.version == version else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            entry.stamp = state.use(version.key)
            state.entries[version.key] = entry
            state.compact()
            return entry.packaged
        }
    }

    /// Whether this build of the pass is held, without counting a lookup (signing ahead asks).
    func holds(_ version: Version) -> Bool {
        state.withLock { $0.entries[version.key]?.version == version }
    }

    func store(_ packaged: PackagedPass, for version: Version) {
        guard packaged.size <= budget else { return }
        state.withLock { state in
            if let erasure = state.erased[version.key], version.tag < erasure { return }
            if let old = state.entries[version.key] { state.statistics.bytes -= old.packaged.size }
            let stamp = state.use(version.key)
            state.entries[version.key] = Entry(version: version, packaged: packaged, stamp: stamp)
            state.statistics.bytes += packaged.size
            while state.statistics.bytes > budget, state.head < state.queue.count {
                let (key, stamp) = state.queue[state.head]
                state.head += 1
                if let entry = state.entries[key], entry.stamp == stamp {
                    state.entries[key] = nil
                    state.statistics.bytes -= entry.packaged.size
                }
            }
            state.compact()
        }
    }

    /// Erasures remembered, so that builds in flight during one are dropped: a build takes
    /// milliseconds, so only the latest erasures matter.
    static let erasureMemory = 4_096

    /// Drops the pass's archive after its erasure (tagged `tag`): no copy of the old record may
    /// stay, in memory either, and a build of a version before it that finishes later is not kept.
    func forget(_ key: PassKey, erasedAt tag: Int64) {
        state.withLock { state in
            if let entry = state.entries[key], entry.version.tag < tag {
                state.entries[key] = nil
                state.statistics.bytes -= entry.packaged.size
            }
            if state.erased.updateValue(tag, forKey: key) == nil { state.erasedOrder.append(key) }
            if state.erasedOrder.count > Self.erasureMemory {
                state.erased[state.erasedOrder.removeFirst()] = nil
            }
        }
    }

    var statistics: SignedPassCacheStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.entries = state.entries.count
            return statistics
        }
    }
}

/// What the signed-pass cache did since start: for `/metrics` and the fleet benchmark, whose
/// signatures per refreshed pass follow from its misses.
public struct SignedPassCacheStatistics: Sendable, Equatable {
    /// Lookups answered from the cache.
    public var hits = 0
    /// Lookups that found nothing, so the pass was built and signed: the signatures made, by
    /// downloads and by signing ahead of pushes.
    public var misses = 0
    /// Passes held now.
    public var entries = 0
    /// Their own bytes (`pass.json`, manifest, signature, central directory; the template's files
    /// every archive begins with are held once, not counted).
    public var bytes = 0
}
