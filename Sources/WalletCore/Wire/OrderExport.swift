import Foundation
import PassModel

/// Everything stored about a customer's orders (GDPR Art. 15 and 20), as `GET
/// /api/v1/orders/{orderType}/{orderId}/export` and `POST /api/v1/orders/exports` give it:
/// machine-readable, to hand to the customer or to another system.
public struct OrderExport: WireValue {
    public static let schemaName = "OrderExport"

    public var exportedAt: Date
    public var orders: [OrderRecord]

    public init(exportedAt: Date, orders: [OrderRecord]) {
        self.exportedAt = exportedAt
        self.orders = orders
    }

    /// One order and what is kept about it.
    public struct OrderRecord: Codable, Sendable, Equatable {
        public var orderTypeIdentifier: String
        public var orderIdentifier: String
        public var template: String
        /// `order.json` as Wallet gets it, without its `authenticationToken` (a credential, not data
        /// about the customer).
        public var order: JSONValue
        public var createdAt: Date
        public var updatedAt: Date
        @NullWhenAbsent public var erasedAt: Date?
        /// The devices Wallet registered for it.
        public var devices: [Device]
        public var events: [Event]
        public var audit: [AuditRecord]

        public init(
            orderTypeIdentifier: String, orderIdentifier: String, template: String, order: JSONValue, createdAt: Date, updatedAt: Date, erasedAt: Date?,
            devices: [Device], events: [Event], audit: [AuditRecord]
        ) {
            (self.orderTypeIdentifier, self.orderIdentifier, self.template, self.order) = (orderTypeIdentifier, orderIdentifier, template, order)
            (self.createdAt, self.updatedAt, self.erasedAt) = (createdAt, updatedAt, erasedAt)
            (self.devices, self.events, self.audit) = (devices, events, audit)
        }
    }

    public struct Device: Codable, Sendable, Equatable {
        public var deviceIdentifier: String
        public var registeredAt: Date

        public init(deviceIdentifier: String, registeredAt: Date) {
            (self.deviceIdentifier, self.registeredAt) = (deviceIdentifier, registeredAt)
        }
    }
}
