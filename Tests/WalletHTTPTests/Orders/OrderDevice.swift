import Foundation
import PasswrightTesting
import ZipArchive

/// Wallet on a phone, as the Orders web service sees it: a device identifier and an APNs token, and
/// the requests Wallet makes for an order (Apple's Orders web service endpoints).
struct OrderDevice: Sendable {
    let device: SimulatedDevice
    let orderType: String

    init(_ label: String, orderType: String) {
        device = SimulatedDevice(label)
        self.orderType = orderType
    }

    var pushToken: String { device.pushToken }

    func register(_ client: RawHTTPClient, order: String, token: String) async throws -> Int {
        try await client.send(
            "POST", "/orders/v1/devices/\(device.identifier)/registrations/\(orderType)/\(escape(order))",
            headers: [("Authorization", "AppleOrder \(token)")], body: Data(#"{"pushToken":"\#(pushToken)"}"#.utf8)
        ).status
    }

    func unregister(_ client: RawHTTPClient, order: String, token: String) async throws -> Int {
        try await client.send(
            "DELETE", "/orders/v1/devices/\(device.identifier)/registrations/\(orderType)/\(escape(order))",
            headers: [("Authorization", "AppleOrder \(token)")]
        ).status
    }

    /// The device's orders changed since `lastModified` (what Wallet asks after a push).
    func changedOrders(_ client: RawHTTPClient, since lastModified: String? = nil) async throws -> RawResponse {
        try await client.send(
            "GET", "/orders/v1/devices/\(device.identifier)/registrations/\(orderType)" + (lastModified.map { "?ordersModifiedSince=\($0)" } ?? ""))
    }

    /// The latest order, with `If-Modified-Since` when given.
    func fetch(_ client: RawHTTPClient, order: String, token: String, ifModifiedSince: String? = nil) async throws -> RawResponse {
        var headers = [("Authorization", "AppleOrder \(token)")]
        if let ifModifiedSince { headers.append(("If-Modified-Since", ifModifiedSince)) }
        return try await client.send("GET", "/orders/v1/orders/\(orderType)/\(escape(order))", headers: headers)
    }
}

/// A `.order` the server sent, opened with the project's zip reader.
struct ServedOrder {
    let archive: Data
    let orderJSON: JSON

    init(archive: Data) throws {
        self.archive = archive
        orderJSON = try JSON(parsing: ZipReader(data: archive).data(for: "order.json"))
    }
}
