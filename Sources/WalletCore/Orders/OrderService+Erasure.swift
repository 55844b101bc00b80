import Foundation
import PassModel
import WalletStore

/// Erasing a customer's data from orders (GDPR Art. 17), by order or by a value in `order.json`.
/// An order is the customer's purchase: who bought, what, where it goes, how it was paid. Erasure
/// keeps only what Wallet requires of an order — identifiers, type, status, merchant, dates, the
/// web service and its token — with the merchant's site as `orderManagementURL` (the order's own URL
/// may name the customer's account); everything else goes. The result is signed and written
/// through the one order write path, which pushes its devices so Wallet's copy loses the data too,
/// and marks the order erased in the same transaction: a tombstone that still answers Wallet.
extension OrderService {
    /// What erasing one order came to.
    public struct Erasure: Sendable, Equatable {
        public let key: OrderKey
        /// Whether it had been erased before (nothing was done now).
        public let alreadyErased: Bool
        /// Outbox rows queued for its devices now.
        public let pushesQueued: Int
    }

    /// The top-level keys an erased order keeps: Wallet's required ones and the server's own.
    static let keptWhenErased: Set<String> = [
        "schemaVersion", "orderTypeIdentifier", "orderIdentifier", "orderType", "status", "merchant", "createdAt", "updatedAt",
        "webServiceURL", "authenticationToken",
    ]

    /// Erases the customer's data from order `key`; `nil` when there is no such order. Idempotent:
    /// a second call answers ``Erasure/alreadyErased``.
    public func erase(_ key: OrderKey, origin: WriteOrigin) async throws -> Erasure? {
        try await retryingLostRaces(key) {
            guard let current = try await store.order(key) else { return .answered(nil) }
            if current.erasedAt != nil { return .answered(Erasure(key: key, alreadyErased: true, pushesQueued: 0)) }
            let before = try Self.object(current.document)
            var change = try await change(current, from: before, to: Self.erased(before), origin: origin)
            change.erases = true
            switch try await store.writeOrder(change) {
            case .written(_, let queued):
                try await store.flushErasedPages()
                return .answered(Erasure(key: key, alreadyErased: false, pushesQueued: queued))
            case .erased: return .answered(Erasure(key: key, alreadyErased: true, pushesQueued: 0))
            case .conflict: return .lost
            case .notFound: return .answered(nil)
            }
        }
    }

    /// Erases every order (of `template`, when given) whose `order.json` holds `value` at `path`
    /// (dots between members: `customer.emailAddress`). Candidates are narrowed by the value's text
    /// in the stored document, then compared exactly.
    public func erase(matching path: String, value: String, template: String?, origin: WriteOrigin) async throws -> [Erasure] {
        var erasures: [Erasure] = []
        for key in try await orders(matching: path, value: value, template: template) {
            if let erasure = try await erase(key, origin: origin) { erasures.append(erasure) }
        }
        return erasures
    }

    /// The orders not erased (of `template`, when given) whose `order.json` holds `value` at `path`.
    public func orders(matching path: String, value: String, template: String?) async throws -> [OrderKey] {
        let lookup = try RecordPath(path, value: value)
        let pageSize = 200
        var found: [OrderKey] = []
        var after: OrderKey?
        while true {
            let page = try await store.ordersContaining(lookup.storedText, template: template, after: after, limit: pageSize)
            for order in page where lookup.isHeld(by: .object(try Self.object(order.document))) { found.append(order.key) }
            guard page.count == pageSize, let last = page.last else { return found }
            after = last.key
        }
    }

    /// Removes the registrations of orders erased longer than ``WalletStore/erasureGrace`` ago, in
    /// batches; returns how many went.
    public func dropErasedRegistrations(now: Date = Date(), batch: Int = 1_000) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(WalletStore.erasureGrace.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.dropErasedOrderRegistrations(before: cutoff, limit: $0) }
    }

    /// `document` reduced to ``keptWhenErased``, its `orderManagementURL` the merchant's `url`.
    static func erased(_ document: JSONObject) -> JSONObject {
        var kept = JSONObject(document.entries.filter { keptWhenErased.contains($0.key) })
        if case .object(let merchant)? = document["merchant"] { kept["orderManagementURL"] = merchant["url"] }
        return kept
    }
}
