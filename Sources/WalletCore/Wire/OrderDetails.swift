import Foundation
import PassModel

/// An order as the admin API shows it (`POST /api/v1/orders`, `GET` and `PATCH
/// /api/v1/orders/{orderType}/{orderId}`): its identity, what a payment sheet hands Wallet (Apple
/// Pay's order details: type, identifier, web service, token) and the whole `order.json`.
public struct OrderDetails: WireValue {
    public static let schemaName = "OrderDetails"

    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// The order template it was created from.
    public var template: String
    /// The version of that template whose files (images, `.lproj` folders) it is signed with: the
    /// one current when it was created, whatever came since.
    public var templateVersion: Int64
    /// Where Wallet fetches it (`webServiceURL` + `/v1/orders/…`).
    public var webServiceURL: String
    /// The token Wallet sends as `Authorization: AppleOrder <token>`; give it with the order's
    /// details at payment (Apple Pay) so Wallet can fetch the order.
    public var authenticationToken: String
    /// `updatedAt` of the order (RFC 3339): increases with every change.
    public var updatedAt: String
    /// The order's update tag, a string (an integer in JavaScript loses precision past 2^53).
    public var updateTag: String
    /// Devices registered for its pushes.
    public var registeredDevices: Int
    /// Pushes queued by this request (a `PATCH`); 0 otherwise.
    public var pushesQueued: Int
    /// The whole `order.json` Wallet gets.
    public var order: JSONObject

    public init(
        orderTypeIdentifier: String, orderIdentifier: String, template: String, templateVersion: Int64, webServiceURL: String, authenticationToken: String,
        updatedAt: String, updateTag: String, registeredDevices: Int, pushesQueued: Int, order: JSONObject
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.template = template
        self.templateVersion = templateVersion
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
        self.updatedAt = updatedAt
        self.updateTag = updateTag
        self.registeredDevices = registeredDevices
        self.pushesQueued = pushesQueued
        self.order = order
    }
}

/// What `GET /api/v1/orders` answers: the most recently changed orders, newest first.
public struct OrderList: WireValue {
    public static let schemaName = "OrderList"

    public struct Entry: Codable, Sendable, Equatable {
        public var orderTypeIdentifier: String
        public var orderIdentifier: String
        public var template: String
        /// The order's `status` (`open`, `completed`, `cancelled`).
        public var status: String
        public var updatedAt: String

        public init(orderTypeIdentifier: String, orderIdentifier: String, template: String, status: String, updatedAt: String) {
            self.orderTypeIdentifier = orderTypeIdentifier
            self.orderIdentifier = orderIdentifier
            self.template = template
            self.status = status
            self.updatedAt = updatedAt
        }
    }

    public var orders: [Entry]

    public init(orders: [Entry]) {
        self.orders = orders
    }
}
