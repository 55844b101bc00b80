import Foundation
import PassModel
import WalletStore

/// Exporting what is stored about a customer's orders (GDPR Art. 15 and 20): by order, or by a
/// value in `order.json` (every order of one e-mail address, say).
extension OrderService {
    /// Everything stored about the order `key`; `nil` when there is no such order.
    public func export(_ key: OrderKey) async throws -> OrderExport? {
        guard let record = try await exportRecord(key) else { return nil }
        return OrderExport(exportedAt: store.clock.now(), orders: [record])
    }

    /// Everything stored about the orders (of `template`, when given) whose `order.json` holds
    /// `value` at `path`.
    public func export(matching path: String, value: String, template: String?) async throws -> OrderExport {
        var records: [OrderExport.OrderRecord] = []
        for key in try await orders(matching: path, value: value, template: template) {
            if let record = try await exportRecord(key) { records.append(record) }
        }
        return OrderExport(exportedAt: store.clock.now(), orders: records)
    }

    private func exportRecord(_ key: OrderKey) async throws -> OrderExport.OrderRecord? {
        guard let order = try await store.order(key) else { return nil }
        var document = try Self.object(order.document)
        document["authenticationToken"] = nil
        let audit = try await store.auditEntries(AuditFilter(target: AuditDraft.order(key)), limit: WalletStore.maximumAuditPage).map(AuditRecord.init)
        return OrderExport.OrderRecord(
            orderTypeIdentifier: key.orderTypeIdentifier, orderIdentifier: key.orderIdentifier, template: order.template, order: .object(document),
            createdAt: order.createdAt, updatedAt: order.lastModified, erasedAt: order.erasedAt,
            devices: try await store.orderDevices(for: key).map { OrderExport.Device(deviceIdentifier: $0.deviceIdentifier, registeredAt: $0.registeredAt) },
            events: try await store.events(for: key).map(Event.init), audit: audit)
    }
}
