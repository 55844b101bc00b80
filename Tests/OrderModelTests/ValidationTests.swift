import Testing
import PassModel
import OrderModel

@Suite struct ValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let edits: [(String, JSONValue?)]
        let path: String
        let rule: String
        let severity: ValidationIssue.Severity
        var testDescription: String { rule + " at " + path }

        init(_ edits: [(String, JSONValue?)], _ path: String, _ rule: String, _ severity: ValidationIssue.Severity = .error) {
            self.edits = edits
            self.path = path
            self.rule = rule
            self.severity = severity
        }
    }

    static let token: JSONValue = .string("vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc")
    static let url: JSONValue = .string("https://bakery.example.com/wallet")

    static func shipping(_ id: String, _ extra: JSONObject = [:]) -> JSONValue {
        var object: JSONObject = ["fulfillmentType": .string("shipping"), "fulfillmentIdentifier": .string(id), "status": .string("open")]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    static func pickup(_ extra: JSONObject) -> JSONValue {
        var object: JSONObject = ["fulfillmentType": .string("pickup"), "fulfillmentIdentifier": .string("p1"),
                                  "displayName": .string("Market Street"), "status": .string("open")]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    @Test(arguments: [
        Case([("webServiceURL", url)], "authenticationToken", "webService.pairing"),
        Case([("authenticationToken", token)], "webServiceURL", "webService.pairing"),
        Case([("webServiceURL", url), ("authenticationToken", .string("short"))], "authenticationToken", "authenticationToken.length"),
        Case([("webServiceURL", .string("https://bakery.example.com/wallet/v1")), ("authenticationToken", token)],
             "webServiceURL", "webServiceURL.version"),
        Case([("schemaVersion", .number(2))], "schemaVersion", "schemaVersion"),
        Case([("orderIdentifier", .string(""))], "orderIdentifier", "required"),
        Case([("updatedAt", .string("2025-03-01T10:29:00+01:00"))], "updatedAt", "updatedAt.order"),
        Case([("fulfillments", .array([shipping("s1"), shipping("s1")]))], "fulfillments[1].fulfillmentIdentifier", "fulfillment.uniqueIdentifiers"),
        Case([("fulfillments", .array([shipping("s1", ["estimatedDeliveryWindowDuration": .string("PT2H")])]))],
             "fulfillments[0].estimatedDeliveryAt", "shipping.deliveryWindow"),
        Case([("fulfillments", .array([shipping("s1", ["shippedAt": .string("2025-03-02T08:00:00Z"), "deliveredAt": .string("2025-03-01T08:00:00Z")])]))],
             "fulfillments[0].deliveredAt", "shipping.dates"),
        Case([("fulfillments", .array([shipping("s1", ["status": .string("delivered")])]))],
             "fulfillments[0].deliveredAt", "shipping.deliveredAt", .warning),
        Case([("fulfillments", .array([pickup(["pickupWindowDuration": .string("PT1H")])]))], "fulfillments[0].pickupAt", "pickup.window"),
        Case([("fulfillments", .array([pickup(["status": .string("pickedUp")])]))], "fulfillments[0].pickedUpAt", "pickup.pickedUpAt", .warning),
        Case([("fulfillments", .array([pickup(["location": .object(["latitude": .number(91), "longitude": .number(0)])])]))],
             "fulfillments[0].location.latitude", "location.latitude"),
        Case([("fulfillments", .array([pickup(["address": .object(["countryCode": .string("USA")])])]))],
             "fulfillments[0].address.countryCode", "address.countryCode"),
        Case([("lineItems", .array([.object(["title": .string("Croissant"), "quantity": .number(-1)])]))], "lineItems[0].quantity", "lineItem.quantity"),
        Case([("returnInfo", .object(["returnPolicyURL": .string("https://bakery.example.com/returns"), "displayCountdown": .bool(true)]))],
             "returnInfo.returnDeadline", "returnInfo.countdown"),
        Case([("returns", .array([.object(["returnIdentifier": .string("r1"), "status": .string("open"), "returnLabel": .string("label.docx")])]))],
             "returns[0].returnLabel", "return.labelType"),
        Case([("returns", .array([.object(["returnIdentifier": .string("r1"), "status": .string("open")]),
                                   .object(["returnIdentifier": .string("r1"), "status": .string("open")])]))],
             "returns[1].returnIdentifier", "return.uniqueIdentifiers"),
        Case([("payment", .object(["total": .object(["amount": .number(5), "currency": .string("USD")]), "status": .string("paid"),
                                   "summaryItems": .array([.object(["label": .string("Tax"), "value": .object(["amount": .number(1), "currency": .string("EUR")])])])]))],
             "payment.summaryItems[0].value.currency", "payment.currency", .warning),
        Case([("associatedApplications", .array([.object(["storeIdentifier": .number(0)])]))],
             "associatedApplications[0].storeIdentifier", "application.storeIdentifier"),
    ])
    func oneRule(_ testCase: Case) throws {
        var json = OrderFixtures.minimal
        for (path, value) in testCase.edits { json = json.setting(path, to: value) }
        let (order, decodingIssues) = try Order.decode(json)
        #expect(decodingIssues == [])
        let issues = order.validate()
        #expect(issues.map(\.path) == [testCase.path])
        #expect(issues.first?.rule == testCase.rule)
        #expect(issues.first?.severity == testCase.severity)
    }

    @Test func closedStatuses() {
        #expect(OrderStatus.allCases.filter(\.isClosed) == [.completed, .cancelled])
    }
}
