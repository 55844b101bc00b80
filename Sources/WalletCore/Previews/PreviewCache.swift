import Foundation
import Locking
import PassModel
import PassPreview
import WalletStore

/// Pictures of recently previewed passes, keyed by pass, update tag, template version and the
/// preview's options, so an admin console redrawing the same pass (or many tabs showing it) costs a
/// lookup instead of a layout and a PNG encode. A pass's preview changes only when one of those
/// changes, just as its signed archive does (``SignedPassCache``).
///
/// Bounded twice: by entries and by bytes (a picture of both sides at @3x is about a megabyte); the
/// least recently used entry goes first. Storing a pass's picture at a newer tag or version drops
/// that pass's older ones, which no request can reach any more.
final class PreviewCache: Sendable {
    /// What a picture is cached under: everything it is drawn from.
    struct Key: Hashable, Sendable {
        let pass: PassKey
        let tag: Int64
        let templateVersion: Int64
        /// ``PreviewOptions/cacheKey`` (`front-2x-png-de-own`).
        let options: String

        init(pass: StoredPass, options: PreviewOptions) {
            self.init(pass: pass.key, tag: pass.updateTag, templateVersion: pass.templateVersion, options: options.cacheKey)
        }

        init(pass: PassKey, tag: Int64, templateVersion: Int64, options: String) {
            self.pass = pass
            self.tag = tag
            self.templateVersion = templateVersion
            self.options = options
        }

        /// The entity tag of the picture: it names everything the picture is drawn from, so it
        /// changes exactly when the picture may. Quoted, as RFC 9110 §8.8.3 has it.
        public var entityTag: String { "\"\(tag)-\(templateVersion)-\(options)\"" }
    }

    private struct Entry {
        let data: Data
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most pictures kept.
    let capacity: Int
    /// The most bytes of pictures kept.
    let maxBytes: Int
    private let state = Locked(State())

    init(capacity: Int, maxBytes: Int) {
        precondition(capacity >= 1 && maxBytes >= 1, "a cache holds at least one picture")
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    /// The picture cached under `key`, marked as just used; `nil` when it is not cached.
    func picture(for key: Key) -> Data? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.data
        }
    }

    /// Keeps `data` under `key`, unless it alone is over the byte bound.
    func store(_ data: Data, for key: Key) {
        guard data.count <= maxBytes else { return }
        state.withLock { state in
            // The same pass at another tag or version: superseded, never asked for again.
            for old in state.entries.keys where old.pass == key.pass && (old.tag != key.tag || old.templateVersion != key.templateVersion) {
                state.bytes -= state.entries.removeValue(forKey: old)?.data.count ?? 0
            }
            state.clock += 1
            state.bytes -= state.entries.updateValue(Entry(data: data, lastUse: state.clock), forKey: key)?.data.count ?? 0
            state.bytes += data.count
            while state.entries.count > capacity || state.bytes > maxBytes,
                  let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.bytes -= state.entries.removeValue(forKey: oldest)?.data.count ?? 0
            }
        }
    }

    /// How many pictures and bytes are kept now.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }
}
