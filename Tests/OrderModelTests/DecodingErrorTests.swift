import Foundation
import Testing
import PassModel
import OrderModel

@Suite struct DecodingErrorTests {
    @Test func minimalOrderDecodes() throws {
        let (order, issues) = try Order.decode(OrderFixtures.minimal)
        #expect(issues == [])
        #expect(order.validate() == [])
        #expect(order.status == .open)
        #expect(order.merchant.url.text == "https://bakery.example.com")
        #expect(order.lineItems.isEmpty && order.fulfillments.isEmpty && order.payment == nil)
    }

    @Test func brokenOrderReportsEveryProblemInOneError() throws {
        let lineItems: JSONValue = .array([
            .object(["title": .string("Sourdough loaf"), "quantity": .number(2)]),
            .object(["title": .string("Croissant"), "price": .object(["amount": .string("6.50"), "currency": .string("USD")])]),
        ])
        let json = OrderFixtures.minimal
            .setting("status", to: .string("shipped"))
            .setting("createdAt", to: .string("2025-03-01 09:30"))
            .setting("lineItems", to: lineItems)
            .setting("webServiceURL", to: .string("http://bakery.example.com/wallet"))
            .setting("authenticationToken", to: .string("vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc"))
            .setting("orderNumber", to: .number(1042))
            .setting("fulfillments", to: .array([.object(["fulfillmentType": .string("digital"), "fulfillmentIdentifier": .string("d1")])]))
        do {
            _ = try Order.decode(json)
            Issue.record("a broken order decoded")
        } catch {
            let byPath = Dictionary(error.problems.map { ($0.path, $0.message) }, uniquingKeysWith: { $1 })
            #expect(Set(byPath.keys) == [
                "status", "createdAt", "lineItems[1].quantity", "lineItems[1].price.amount", "webServiceURL", "orderNumber",
                "fulfillments[0].fulfillmentType",
            ])
            #expect(byPath["status"] == "expected one of \"open\", \"completed\", \"cancelled\", found the string \"shipped\"")
            #expect(byPath["createdAt"]?.hasPrefix("expected a W3C date with a time zone") == true)
            #expect(byPath["lineItems[1].quantity"] == "required key is missing")
            #expect(byPath["lineItems[1].price.amount"] == "expected a number like 24.99, found the string \"6.50\"")
            #expect(byPath["webServiceURL"]?.contains("https") == true)
            #expect(byPath["orderNumber"] == "expected a string, found the number 1042")
            #expect(byPath["fulfillments[0].fulfillmentType"] == "expected one of \"shipping\", \"pickup\", found the string \"digital\"")
            #expect(error.description.contains("lineItems[1].price.amount: expected a number"))
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let edit: String
        let value: JSONValue?
        let expected: String
        var testDescription: String { expected }
    }

    @Test(arguments: [
        Case(edit: "schemaVersion", value: .string("1"), expected: "schemaVersion: expected an integer, found the string \"1\""),
        Case(edit: "orderType", value: .string("subscription"), expected: "orderType: expected one of \"ecommerce\", found the string \"subscription\""),
        Case(edit: "merchant.url", value: nil, expected: "merchant.url: required key is missing"),
        Case(edit: "merchant.url", value: .string("bakery.example.com"),
             expected: "merchant.url: expected an absolute URL like https://example.com/orders/42, found the string \"bakery.example.com\""),
        Case(edit: "merchant.logo", value: .string("../logo.png"),
             expected: "merchant.logo: expected a path inside the order package like logo.png or images/logo.png (relative, no .. and no URL), found the string \"../logo.png\""),
        Case(edit: "updatedAt", value: .string("2025-03-01T09:30:00+0000"),
             expected: "updatedAt: expected a W3C date with a time zone like 2025-12-09T13:00:00Z or 2025-12-09T08:00-05:00, found the string \"2025-03-01T09:30:00+0000\""),
        Case(edit: "payment", value: .object(["total": .object(["amount": .number(5), "currency": .string("usd")]), "status": .string("paid")]),
             expected: "payment.total.currency: expected an ISO 4217 currency code of three uppercase letters like USD, found the string \"usd\""),
        Case(edit: "payment", value: .object(["total": .object(["amount": .number(5), "currency": .string("USD")])]),
             expected: "payment.status: required key is missing"),
        Case(edit: "fulfillments", value: .array([.object(["fulfillmentType": .string("pickup"), "fulfillmentIdentifier": .string("p1"),
                                                           "status": .string("readyForPickup")])]),
             expected: "fulfillments[0].displayName: required key is missing"),
        Case(edit: "fulfillments", value: .array([.object(["fulfillmentType": .string("shipping"), "fulfillmentIdentifier": .string("s1"),
                                                           "status": .string("readyForPickup")])]),
             expected: "fulfillments[0].status: expected one of \"open\", \"processing\", \"onTheWay\", \"outForDelivery\", \"delivered\", \"shipped\", \"issue\", \"cancelled\", found the string \"readyForPickup\""),
        Case(edit: "fulfillments", value: .array([.object(["fulfillmentIdentifier": .string("s1"), "status": .string("open")])]),
             expected: "fulfillments[0].fulfillmentType: required key is missing; it decides the other keys: \"shipping\" or \"pickup\""),
        Case(edit: "fulfillments", value: .array([.object(["fulfillmentType": .string("shipping"), "fulfillmentIdentifier": .string("s1"),
                                                           "status": .string("open"), "estimatedDeliveryWindowDuration": .string("2 hours")])]),
             expected: "fulfillments[0].estimatedDeliveryWindowDuration: expected an ISO 8601 duration like PT30M or P1DT2H, found the string \"2 hours\""),
        Case(edit: "associatedApplications", value: .array([.object(["storeIdentifier": .string("123")])]),
             expected: "associatedApplications[0].storeIdentifier: expected an integer, found the string \"123\""),
        Case(edit: "changeNotifications", value: .string("disabled"),
             expected: "changeNotifications: expected one of \"enabled\", \"disabledIfAppInstalled\", found the string \"disabled\""),
        Case(edit: "barcode", value: .object(["format": .string("PKBarcodeFormatQR"), "message": .string("x"), "messageEncoding": .string("iso-8859-1")]),
             expected: "barcode.format: expected one of \"qr\", \"pdf417\", \"aztec\", \"code128\", found the string \"PKBarcodeFormatQR\""),
    ])
    func oneProblem(_ testCase: Case) {
        let json = OrderFixtures.minimal.setting(testCase.edit, to: testCase.value)
        #expect(throws: OrderDecodingError.self) { try Order.decode(json) }
        do {
            _ = try Order.decode(json)
        } catch {
            #expect(error.description == testCase.expected)
        }
    }

    @Test func malformedBytesAreInvalidJSON() {
        #expect(throws: OrderDecodingError.self) { try Order.decode(Data("{\"schemaVersion\": 1,".utf8)) }
        do {
            _ = try Order.decode(Data("[1]".utf8))
        } catch {
            #expect(error == .invalidValue(path: "", message: "expected an object, found an array"))
        }
    }

    @Test(arguments: ["PT30M", "P0Y0M0DT0H30M0S", "P1W", "PT1.5S", "P1DT2H"])
    func durationsParse(_ text: String) throws {
        let duration = try #require(ISODuration(text))
        #expect(duration.text == text)
    }

    @Test(arguments: ["", "P", "PT", "30M", "PT30", "P1.5D", "PT2H2H", "P1H"])
    func durationsReject(_ text: String) {
        #expect(ISODuration(text) == nil)
    }

    @Test func durationSeconds() throws {
        #expect(try #require(ISODuration("P0Y0M0DT2H0M0S")).fixedSeconds == 7200)
        #expect(try #require(ISODuration("P1DT30M")).fixedSeconds == 88_200)
        #expect(try #require(ISODuration("P1M")).fixedSeconds == nil)
    }
}
