import Foundation
import PassCompiler
import PassModel
import WalletStore

/// The one write pipeline of a pass. Every writer — the REST `PATCH`, a template-wide change, the
/// console, a personalization, a void, a held change's release and a template roll-out — hands it a
/// ``PassEdit`` and it does the rest, the same way for all of them:
///
/// 1. merge: the edit on top of the pass as stored and any held edits;
/// 2. validate: the result rendered with its template version (a pass Wallet would refuse is a 422);
/// 3. the notification policy: a change that shows the holder a notification in their quiet hours,
///    or too soon after the last one, is *held* — its edit, not a snapshot, so a later write is never
///    undone — and a silent edit goes at once, taking its keys out of what is held;
/// 4. a compare-and-swap on the pass's update tag and held change, retried from step 1 up to
///    ``maximumAttempts`` times (then ``WalletStoreError/updateConflict(_:attempts:)``, a 503 with
///    `Retry-After`);
/// 5. the write, its history row, its pushes and the hold, in one transaction
///    (``WalletStore/writePasses(_:)``).
///
/// Steps 1–3 run outside any transaction (rendering takes milliseconds of CPU); step 5 is short.
struct PassWriter: Sendable {
    let store: WalletStore
    let templates: TemplateLibrary
    /// The source of "now" for the notification policy.
    let clock: any WalletClock
    /// When changes that notify the holder go out.
    let notifications: NotificationPolicy
    /// How often a write is computed before it gives up: each failed attempt means another writer's
    /// change to the pass landed first. One bound for every writer.
    let maximumAttempts: Int
    /// Awaited after a change is rendered and validated, before it is written. Production has none;
    /// tests suspend here to prove that no transaction or lock is held while a pass renders.
    let afterValidation: (@Sendable (PassKey) async -> Void)?
    /// Told whenever a hold is stored, so the releaser wakes for the earliest release.
    let holdStored: @Sendable () -> Void

    /// Enough for a handful of writers racing on one pass, few enough that a request under a stream
    /// of writers answers quickly instead of spinning.
    static let defaultMaximumAttempts = 8

    /// Passes per transaction of a template-wide change, a roll-out or a release of held changes.
    static let batchSize = 200

    /// What one pass's write is to be: the compare-and-swap request, and when its held part goes out.
    struct Plan: Sendable {
        /// The request, `nil` when the edit changes nothing.
        var request: PassWriteRequest?
        /// When the held part goes out, if anything is held after this write.
        var heldUntil: Date?
        /// Whether the edit itself waits in the hold (it notifies, and now is not the moment).
        var editHeld = false

        /// Whether the write stores a hold.
        var holds: Bool {
            if case .replace? = request?.hold { true } else { false }
        }
    }

    /// The plan for `edit` on `pass` (with its held change `hold`), or, with no edit, for releasing
    /// `hold` now. Throws when the result does not validate.
    func plan(_ edit: PassEdit?, for pass: StoredPass, hold: PassHold?, origin: WriteOrigin) async throws -> Plan {
        let held = try hold.map { try PassEdit.decode($0.edits) } ?? []
        let visible = try PassState(pass)
        let eventual = held.reduce(visible) { $0.merging($1) }
        let target = edit.map { eventual.merging($0) } ?? eventual
        var request = PassWriteRequest(key: pass.key, expectedTag: pass.updateTag, expectedHold: hold?.edits, change: nil, origin: origin)
        if edit != nil, target == eventual { return Plan(request: nil, heldUntil: hold?.releaseAt) }

        let targetCompiler = try await templates.compiler(pass.template, version: target.templateVersion)
        let targetPass = try render(target, of: pass, with: targetCompiler)
        // The pass as the holder sees it now, rendered only when the etiquette needs to compare, and
        // not when only its template version moves, to one whose fields cannot show a change message.
        // A stored pass that no longer renders (a rule of a later Passwright it predates) is taken
        // to show a change message: the write that mends it goes out, politely, rather than failing.
        var visiblePass: Pass?
        var unreadable = false
        if notifications.enabled {
            let compiler = try await templates.compiler(for: pass)
            if !Self.onlyMovesVersion(from: visible, to: target, held: held) || targetCompiler.template.mayShowChangeMessage(movingFrom: compiler.template) {
                do { visiblePass = try read(visible, of: pass, with: compiler) } catch { unreadable = true }
            }
        }
        await afterValidation?(pass.key)
        let notifying = unreadable || visiblePass.map { targetPass.notifiesOfChange(from: $0) } ?? false
        let now = clock.now()
        let release = !notifying ? nil : edit == nil ? hold?.releaseAt : hold?.releaseAt ?? notifications.release(
            of: targetPass, settings: targetCompiler.template.settings, lastNotified: pass.lastNotifiedAt, now: now)

        guard let release, release > now else {
            // Everything goes out now, held edits included.
            request.change = target.stored
            request.change?.expiresAt = .some(targetPass.expirationDate?.date)
            request.hold = hold == nil ? .keep : .remove
            request.notifies = notifying
            return Plan(request: request, heldUntil: nil)
        }
        if let edit, let visiblePass, !held.isEmpty {
            // Something is held already: this edit's own effect goes at once if it is silent, and
            // the held edits lose the keys it sets, so that their release cannot undo it.
            let direct = visible.merging(edit)
            if direct != visible, let directPass = try? render(direct, of: pass, with: try await templates.compiler(pass.template, version: direct.templateVersion)),
               !directPass.notifiesOfChange(from: visiblePass) {
                let remaining = held.map { $0.removing(keysOf: edit) }.filter { !$0.isEmpty }
                request.change = direct.stored
                request.change?.expiresAt = .some(directPass.expirationDate?.date)
                request.hold = remaining.isEmpty ? .remove : .replace(Self.hold(remaining, of: pass.key, at: release))
                return Plan(request: request, heldUntil: remaining.isEmpty ? nil : release)
            }
        }
        request.hold = .replace(Self.hold(held + (edit.map { [$0] } ?? []), of: pass.key, at: release))
        return Plan(request: request, heldUntil: release, editHeld: edit != nil)
    }

    /// The plan for releasing `hold` now; a held change that no longer renders (a later write made it
    /// invalid) is dropped rather than retried for ever.
    func releasePlan(for pass: StoredPass, hold: PassHold) async throws -> Plan {
        do {
            return try await plan(nil, for: pass, hold: hold, origin: .system(PassUpdateRecord.hold))
        } catch let error as PassCompilerError {
            _ = error
            let drop = PassWriteRequest(key: pass.key, expectedTag: pass.updateTag, expectedHold: hold.edits, change: nil, hold: .remove)
            return Plan(request: drop, heldUntil: nil)
        }
    }

    private static func hold(_ edits: [PassEdit], of key: PassKey, at release: Date) -> PassHold {
        PassHold(key: key, edits: PassEdit.encode(edits), templateVersion: edits.compactMap(\.templateVersion).max(), releaseAt: release)
    }

    /// Whether `target` differs from `visible` in its template version alone, with nothing held and no
    /// override standing in for the fields: then whether the holder sees a change message is the two
    /// templates' to say (``Template/mayShowChangeMessage(movingFrom:)``), for every pass alike.
    static func onlyMovesVersion(from visible: PassState, to target: PassState, held: [PassEdit]) -> Bool {
        var moved = visible
        moved.templateVersion = target.templateVersion
        return held.isEmpty && moved == target && !Template.overridesFields(visible.overrides)
    }

    /// The pass `state` renders to (validated: a state Wallet would refuse is a 422).
    func render(_ state: PassState, of pass: StoredPass, with compiler: PassCompiler) throws -> Pass {
        try compiler.validate(input(state, of: pass), at: clock.now()).pass
    }

    /// The pass `state` renders to, not judged: the state as stored, rendered only to be compared
    /// with the next (validating it too was a fifth of a roll-out's planning, BENCHMARKS.md).
    func read(_ state: PassState, of pass: StoredPass, with compiler: PassCompiler) throws -> Pass {
        try compiler.decode(input(state, of: pass))
    }

    private func input(_ state: PassState, of pass: StoredPass) -> PassInput {
        var overrides = state.overrides
        if state.voided { overrides["voided"] = .bool(true) }
        return PassInput(
            record: state.data, recordName: "pass \(pass.key.serialNumber)", serialNumber: pass.key.serialNumber,
            authenticationToken: pass.authenticationToken, overrides: overrides)
    }
}
