import Foundation
import PassModel
import WalletStore

/// Exporting what is stored about a holder (GDPR Art. 15 and 20): by pass, or by a value in the
/// records (every pass of one member, say).
extension PassService {
    /// Everything stored about the pass `key`; `nil` when there is no such pass.
    public func export(_ key: PassKey) async throws -> HolderExport? {
        guard let record = try await exportRecord(key) else { return nil }
        return HolderExport(exportedAt: now(), passes: [record])
    }

    /// Everything stored about the passes (of `template`, when given) whose record holds `value` at
    /// `path`.
    public func export(matching path: String, value: String, template: String?) async throws -> HolderExport {
        var records: [HolderExport.PassRecord] = []
        for key in try await passes(matching: path, value: value, template: template) {
            if let record = try await exportRecord(key) { records.append(record) }
        }
        return HolderExport(exportedAt: now(), passes: records)
    }

    private func exportRecord(_ key: PassKey) async throws -> HolderExport.PassRecord? {
        guard let pass = try await store.pass(key) else { return nil }
        let history = try await store.passUpdates(for: key, limit: WalletStore.maximumHistory).reversed().map {
            HolderExport.Change(changedAt: $0.changedAt, source: $0.source, changes: $0.changes)
        }
        let held = try await store.hold(key).map { HolderExport.HeldChange(releaseAt: $0.releaseAt, edits: try Self.value($0.edits)) }
        let devices = try await store.registeredDevices(for: key).map {
            HolderExport.Device(deviceLibraryIdentifier: $0.deviceLibraryIdentifier, registeredAt: $0.registeredAt)
        }
        let audit = try await store.auditEntries(AuditFilter(target: AuditDraft.pass(key)), limit: WalletStore.maximumAuditPage).map(AuditRecord.init)
        return HolderExport.PassRecord(
            passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, template: pass.template, templateVersion: pass.templateVersion,
            data: try Self.value(pass.data), overrides: try Self.value(pass.overrides), voided: pass.voided, createdAt: pass.createdAt,
            updatedAt: pass.lastModified, erasedAt: try await store.erasedAt(key), history: history, heldChange: held, devices: devices,
            events: try await store.events(for: key).map(Event.init), audit: audit)
    }
}
