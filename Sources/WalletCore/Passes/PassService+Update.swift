import Foundation
import PassCompiler
import PassModel
import WalletStore

/// Updating one pass: merged, rendered and validated outside any transaction, written with a
/// compare-and-swap on its update tag — and, for a change that shows the holder a notification,
/// held until the moment is right (``NotificationPolicy``).
public extension PassService {
    /// What an update of one pass came to.
    struct PassUpdate: Sendable {
        /// The pass as stored now (without a held change).
        public let pass: StoredPass
        /// Whether anything changed, now or held.
        public let changed: Bool
        /// Outbox rows queued or coalesced now.
        public let pushesQueued: Int
        /// When a held notifying change goes out, if it is held.
        public let heldUntil: Date?
    }

    /// A pass's record, overrides and voided flag: what an update changes.
    struct PassState: Sendable, Equatable {
        var data: JSONValue
        var overrides: JSONObject
        var voided: Bool

        init(data: JSONValue, overrides: JSONObject, voided: Bool) {
            self.data = data
            self.overrides = overrides
            self.voided = voided
        }

        init(_ pass: StoredPass) throws {
            self.init(data: try PassService.value(pass.data), overrides: try PassService.object(pass.overrides), voided: pass.voided)
        }

        init(_ change: PassChange, over pass: StoredPass) throws {
            try self.init(pass)
            if let data = change.data { self.data = try PassService.value(data) }
            if let overrides = change.overrides { self.overrides = try PassService.object(overrides) }
            if let voided = change.voided { self.voided = voided }
        }

        /// This state with `change` merged in (JSON merge patch for data; `null` removes an override).
        func merging(_ change: Change) -> PassState {
            var merged = self
            if let data = change.data { merged.data = JSONMergePatch.apply(data, to: self.data) }
            for (key, value) in change.overrides { merged.overrides[key] = value == .null ? nil : value }
            if let voided = change.voided { merged.voided = voided }
            return merged
        }

        /// The state as the store writes it, canonical, so an unchanged state compares equal.
        var stored: PassChange {
            PassChange(data: PassService.text(data), overrides: PassService.text(.object(overrides)), voided: voided)
        }
    }

    /// Applies a change to one pass; a change that changes nothing advances nothing.
    ///
    /// When another writer's change landed between reading and writing, the merge is redone on the new
    /// row, so both survive; after ``maximumUpdateAttempts`` tries it throws
    /// ``WalletStoreError/updateConflict(_:attempts:)`` (HTTP 503: retry shortly). A change that would
    /// notify the holder overnight, or within the policy's spacing of the last notification, is held:
    /// later edits fold into it, and silent parts of them still go out at once.
    ///
    /// `source` says who asks (``PassUpdateRecord/api`` from the REST API, ``PassUpdateRecord/console``
    /// from the web console): the pass's history records it with each change written now; a held
    /// change is recorded as ``PassUpdateRecord/hold`` when it goes out.
    func update(_ key: PassKey, _ change: Change, source: String) async throws -> PassUpdate {
        for _ in 1...maximumUpdateAttempts {
            guard let current = try await store.pass(key) else { throw WalletStoreError.passNotFound(key) }
            let hold = notifications.enabled ? try await store.hold(key) : nil
            let compiler = try await templates.compiler(for: current)
            let visible = try PassState(current)
            let base = try hold.map { try PassState($0.change, over: current) } ?? visible
            let target = base.merging(change)
            guard target != base else { return PassUpdate(pass: current, changed: false, pushesQueued: 0, heldUntil: hold?.releaseAt) }
            let targetPass = try render(target, of: current, with: compiler)
            // The pass as the holder sees it now, rendered only when the etiquette needs to compare.
            let visiblePass = notifications.enabled ? try render(visible, of: current, with: compiler) : nil
            let notifying = visiblePass.map { NotificationPolicy.notifies(from: $0, to: targetPass) } ?? false
            await afterValidation?(key)

            if notifying, let visiblePass, let release = releaseTime(for: targetPass, of: current, compiler: compiler, hold: hold) {
                // Hold the whole target; the silent part of this edit, if any, goes out now.
                let held = PassHold(key: key, change: target.stored, releaseAt: release)
                guard try await store.saveHold(held, expectedTag: current.updateTag, replacing: hold?.change) else { continue }
                holds?.wake()
                let direct = visible.merging(change)
                let silent = try direct != visible
                    && !NotificationPolicy.notifies(from: visiblePass, to: render(direct, of: current, with: compiler))
                if silent {
                    if case .written(let pass, let queued) = try await store.writePass(
                        key, expectedTag: current.updateTag, change: direct.stored, source: source) {
                        return PassUpdate(pass: pass, changed: true, pushesQueued: queued, heldUntil: release)
                    }
                }
                return PassUpdate(pass: current, changed: true, pushesQueued: 0, heldUntil: release)
            }
            let write = try await store.writePass(
                key, expectedTag: current.updateTag, change: target.stored, notifies: notifying, releasesHold: hold != nil, source: source)
            switch write {
            case .written(let pass, let queued): return PassUpdate(pass: pass, changed: true, pushesQueued: queued, heldUntil: nil)
            case .unchanged(let pass): return PassUpdate(pass: pass, changed: false, pushesQueued: 0, heldUntil: nil)
            case .conflict: continue
            case .notFound: throw WalletStoreError.passNotFound(key)
            }
        }
        throw WalletStoreError.updateConflict(key, attempts: maximumUpdateAttempts)
    }

    /// When a notifying change may go out: a hold keeps its release time (edits fold into it, they
    /// do not push it back), else the policy decides from the pass's zone and last notification.
    private func releaseTime(for pass: Pass, of stored: StoredPass, compiler: PassCompiler, hold: PassHold?) -> Date? {
        if let hold { return hold.releaseAt }
        let last = stored.lastNotifiedAt
        return notifications.release(of: pass, settings: compiler.template.settings, lastNotified: last, now: now())
    }

    /// The pass `state` renders to (validated: a state Wallet would refuse is a 422).
    func render(_ state: PassState, of pass: StoredPass, with compiler: PassCompiler) throws -> Pass {
        var overrides = state.overrides
        if state.voided { overrides["voided"] = .bool(true) }
        return try compiler.validate(PassInput(
            record: state.data, recordName: "pass \(pass.key.serialNumber)", serialNumber: pass.key.serialNumber,
            authenticationToken: pass.authenticationToken, overrides: overrides), at: now()).pass
    }
}
