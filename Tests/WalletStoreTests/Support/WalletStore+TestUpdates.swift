import PassModel
import Storage
@testable import WalletStore

/// The store tests' way of changing passes: the compare-and-swap primitives (``WalletStore/writePass(_:expectedTag:change:notifies:origin:)``
/// and ``WalletStore/writePasses(_:)``) in a retry loop. The product has one such loop, the service's
/// write pipeline; these exist so the store's own tests can drive many writes without it.
extension WalletStore {
    static let templatePageSize = 200
    static let templateWriteBatchSize = 200

    /// Updates one pass from its current row, optimistically: `change` runs outside any transaction
    /// (so a slow change, such as rendering and validating the pass, holds no lock and no connection),
    /// and its result is written with ``writePass(_:expectedTag:change:)``, which lands only while the
    /// pass still has the tag `change` saw. When another writer got there first, `change` runs again
    /// on the new row, up to `maxAttempts` times in all; then ``WalletStoreError/updateConflict(_:attempts:)``.
    ///
    /// `change` may therefore run more than once and must not have effects of its own. A `nil` or
    /// equal change writes nothing. Otherwise the pass gets a new tag and modification time, and one
    /// push per registered device is queued (coalesced with any pending one), in one short
    /// transaction. An error thrown by `change` writes nothing and is rethrown unchanged. The pass's
    /// history records the change with `source`.
    func updatePass(
        _ key: PassKey, maxAttempts: Int = 32, source: String = PassUpdateRecord.api,
        _ change: @Sendable (StoredPass) async throws -> PassChange?
    ) async throws -> UpdateOutcome {
        precondition(maxAttempts >= 1, "an update makes at least one attempt")
        guard var current = try await pass(key) else { throw WalletStoreError.passNotFound(key) }
        for _ in 1...maxAttempts {
            let proposed = try await change(current)
            let write = try await writePass(key, expectedTag: current.updateTag, change: proposed, origin: WriteOrigin(actor: source, source: .api))
            switch write {
            case .written, .unchanged:
                if let outcome = write.outcome { return outcome }
            case .conflict(let newer):
                current = newer
            case .notFound:
                throw WalletStoreError.passNotFound(key)
            }
        }
        throw WalletStoreError.updateConflict(key, attempts: maxAttempts)
    }

    /// Updates every pass of `template`: all changes are computed, or none is written.
    ///
    /// The passes are read in pages of ``templatePageSize`` and `change` runs on each outside any
    /// transaction; when it throws for any pass, nothing is written and the error is rethrown
    /// unchanged. Then the changes are written in batches of ``templateWriteBatchSize`` with
    /// ``writePasses(_:)``, each batch one short transaction under one new tag, each pass only while
    /// it still has the tag its change saw. A pass another writer changed meanwhile is computed again
    /// from its new row and written in a later round, up to `maxAttempts` rounds in all; then
    /// ``WalletStoreError/updateConflict(_:attempts:)``. Such a recomputation is the one case where an
    /// error (or running out of attempts) can leave the batches already written in place.
    ///
    /// Each device gets one push per pass type and batch however many of its passes changed (a
    /// pending row coalesces them). Each written pass's history records its change with `source`.
    func updatePasses(
        template: String, maxAttempts: Int = 32, source: String = PassUpdateRecord.api,
        _ change: @Sendable (StoredPass) async throws -> PassChange?
    ) async throws -> TemplateUpdateOutcome {
        precondition(maxAttempts >= 1, "an update makes at least one attempt")
        var pending: [PassWriteRequest] = []
        var matched = 0
        var after: PassKey?
        while true {
            let page = try await passes(template: template, after: after, limit: Self.templatePageSize)
            matched += page.count
            for pass in page {
                if let proposed = try await change(pass), proposed.alters(pass) { pending.append(PassWriteRequest(proposed, over: pass, source: source)) }
            }
            guard page.count == Self.templatePageSize, let last = page.last else { break }
            after = last.key
        }
        var changed = 0
        var pushesQueued = 0
        for attempt in 1...maxAttempts {
            var conflicts: [StoredPass] = []
            var start = pending.startIndex
            while start < pending.endIndex {
                let batch = Array(pending[start..<min(start + Self.templateWriteBatchSize, pending.endIndex)])
                let written = try await writePasses(batch)
                changed += written.written.count
                pushesQueued += written.pushesQueued
                conflicts += written.conflicts
                start += batch.count
            }
            guard let first = conflicts.first else { break }
            guard attempt < maxAttempts else { throw WalletStoreError.updateConflict(first.key, attempts: maxAttempts) }
            pending = []
            for pass in conflicts {
                if let proposed = try await change(pass), proposed.alters(pass) { pending.append(PassWriteRequest(proposed, over: pass, source: source)) }
            }
        }
        return TemplateUpdateOutcome(matched: matched, changed: changed, pushesQueued: pushesQueued)
    }
}

extension PassWriteRequest {
    /// The change computed from `base`, a version of the pass as read from the store.
    init(_ change: PassChange?, over base: StoredPass, source: String = PassUpdateRecord.api) {
        self.init(key: base.key, expectedTag: base.updateTag, change: change, origin: WriteOrigin(actor: source, source: .api))
    }
}

/// The result of updating one pass.
struct UpdateOutcome: Sendable, Hashable {
    /// The pass after the update (unchanged when ``changed`` is false).
    let pass: StoredPass
    /// Whether anything was written; a `nil` or equal change advances neither tag nor pushes.
    let changed: Bool
    /// How many outbox rows (one per registered device) were queued or coalesced.
    let pushesQueued: Int
}

extension PassWrite {
    /// The result as an ``UpdateOutcome``, or `nil` for a conflict or a missing pass.
    var outcome: UpdateOutcome? {
        switch self {
        case .written(let pass, let pushesQueued): UpdateOutcome(pass: pass, changed: true, pushesQueued: pushesQueued)
        case .unchanged(let pass): UpdateOutcome(pass: pass, changed: false, pushesQueued: 0)
        case .conflict, .notFound: nil
        }
    }
}

/// What ``WalletStore/updatePasses(template:maxAttempts:source:_:)`` came to.
struct TemplateUpdateOutcome: Sendable, Hashable {
    /// How many passes the template has (each was shown to the change closure).
    let matched: Int
    /// How many of them changed.
    let changed: Int
    /// How many outbox rows were queued or coalesced: one per device, pass type and written batch,
    /// however many of the device's passes changed.
    let pushesQueued: Int
}
