import Foundation
import PassModel
import WalletStore

/// Erasing a holder's data (GDPR Art. 17), by pass or by a value in the records: the pass is voided
/// and its record blanked through the one write path, which pushes its devices so Wallet shows it
/// voided; what else held the holder's data goes in the same transaction
/// (``WalletStore/eraseTraces(of:at:in:)``). The serial, the update tag and `voided` stay, so Wallet's
/// calls keep getting a correct answer.
extension PassService {
    /// What erasing one pass came to.
    public struct Erasure: Sendable, Equatable {
        public let key: PassKey
        /// Whether it had been erased before (nothing was done now).
        public let alreadyErased: Bool
        /// Outbox rows queued for its devices now.
        public let pushesQueued: Int
    }

    /// Erases the pass `key`; `nil` when there is no such pass. Idempotent: a second call answers
    /// ``Erasure/alreadyErased``.
    public func erase(_ key: PassKey, origin: WriteOrigin) async throws -> Erasure? {
        guard let pass = try await store.pass(key) else { return nil }
        if try await store.erasedAt(key) != nil { return Erasure(key: key, alreadyErased: true, pushesQueued: 0) }
        let plan: @Sendable (StoredPass, PassHold?) async throws -> PassWriter.Plan = { pass, hold in
            var request = PassWriteRequest(
                key: pass.key, expectedTag: pass.updateTag, expectedHold: hold?.edits,
                change: PassChange(data: try Self.blanked(pass.data), overrides: "{}", voided: true), hold: hold == nil ? .keep : .remove, origin: origin)
            request.erases = true
            return PassWriter.Plan(request: request, heldUntil: nil)
        }
        let landed = try await writer.commit([try await plan(pass, try await store.hold(key))], replan: plan)
        if let erased = landed.written.first(where: { $0.key == key }) { signedPasses.forget(key, erasedAt: erased.updateTag) }
        try await store.flushErasedPages()
        return Erasure(key: key, alreadyErased: false, pushesQueued: landed.pushesQueued)
    }

    /// When the pass was erased, or `nil` when it was not (the console shows the tombstone as such).
    public func erasedAt(_ key: PassKey) async throws -> Date? {
        try await store.erasedAt(key)
    }

    /// Erases every pass (of `template`, when given) whose record holds `value` at `path` (dots
    /// between members, `member.id`). A search narrows the candidates by the value's text; each is
    /// then compared exactly.
    public func erase(matching path: String, value: String, template: String?, origin: WriteOrigin) async throws -> [Erasure] {
        var erasures: [Erasure] = []
        for key in try await passes(matching: path, value: value, template: template) {
            if let erasure = try await erase(key, origin: origin) { erasures.append(erasure) }
        }
        return erasures
    }

    /// Removes the registrations of passes erased longer than ``WalletStore/erasureGrace`` ago, in
    /// batches; returns how many went.
    public func dropErasedRegistrations(now: Date = Date(), batch: Int = 1_000) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(WalletStore.erasureGrace.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.dropErasedRegistrations(before: cutoff, limit: $0) }
    }

    /// The passes (of `template`, when given) whose record holds `value` at `path`.
    public func passes(matching path: String, value: String, template: String?) async throws -> [PassKey] {
        let lookup = try RecordPath(path, value: value)
        var found: [PassKey] = []
        var after: PassKey?
        repeat {
            let page = try await store.searchPasses(PassSearch(text: value, template: template, after: after, limit: PassSearch.maximumLimit))
            let passes = try await store.passes(page.passes.map(\.key))
            for result in page.passes {
                guard let pass = passes[result.key], lookup.isHeld(by: try Self.value(pass.data)) else { continue }
                found.append(result.key)
            }
            after = page.next
        } while after != nil
        return found
    }

    /// The record `text` with every value blanked and its shape kept (strings empty, numbers 0,
    /// booleans false), so the template's placeholders still find a value and the voided pass still
    /// renders for the devices that fetch it.
    static func blanked(_ text: String) throws -> String {
        func blank(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string: .string("")
            case .number: .number(0)
            case .bool: .bool(false)
            case .null: .null
            case .array(let items): .array(items.map(blank))
            case .object(let members): .object(JSONObject(members.entries.map { (key: $0.key, value: blank($0.value)) }))
            }
        }
        return Self.text(blank(try value(text)))
    }
}
