import Foundation
import HTTPServer
import PassModel
import Testing
@testable import WalletCore
@testable import WalletHTTP

/// The request bodies' wire values refuse what the API always refused, with the same words, whether
/// the server reads them (`init(validating:)`) or a client decodes them.
@Suite("Wire request bodies")
struct WireRequestTests {
    static func body(_ text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONValue.parse(Data(text.utf8)) else { throw HTTPError(.badRequest, "not an object") }
        return object
    }

    @Test("an unknown member is a 422 naming it and every member allowed, on the server and in a client's decoder", arguments: [
        (#"{"template":"loyalty","dta":{}}"#, "unknown member 'dta'; allowed: beacons, data, expirationDate, locations, maxDistance, relevantDate, relevantDates, serialNumber, template"),
        (#"{"serialNumber":"A-1"}"#, "template is required"),
    ])
    func issue(_ text: String, _ message: String) throws {
        #expect(throws: HTTPError(.unprocessableContent, message)) { try IssueRequest(validating: Self.body(text)) }
        #expect { try WireJSON.decoder().decode(IssueRequest.self, from: Data(text.utf8)) } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("a member of the wrong type stays a 400 naming it")
    func wrongType() throws {
        #expect(throws: HTTPError(.badRequest, "data must be an object, found a string")) {
            try IssueRequest(validating: Self.body(#"{"template":"loyalty","data":"x"}"#))
        }
        #expect(throws: HTTPError(.badRequest, "voided must be true or false, found a number")) {
            try PassChangeRequest(validating: Self.body(#"{"voided":1}"#))
        }
    }

    @Test("a change with nothing to change is a 422 naming what may be sent")
    func emptyChange() throws {
        #expect(throws: HTTPError(.unprocessableContent,
                                  "nothing to change: send data, voided or a relevance key (beacons, expirationDate, locations, maxDistance, relevantDate, relevantDates)")) {
            try PassChangeRequest(validating: Self.body("{}"))
        }
    }

    @Test("relevance keys sit beside the others in the body, and a body reads back as sent")
    func relevanceIsFlat() throws {
        let text = #"{"data":{"points":3},"relevantDate":"2027-04-15T20:00:00+02:00","voided":false}"#
        let change = try WireJSON.decoder().decode(PassChangeRequest.self, from: Data(text.utf8))
        #expect(change.relevance == ["relevantDate": .string("2027-04-15T20:00:00+02:00")])
        #expect(String(decoding: try WireJSON.encode(change), as: UTF8.self) == text)
    }

    @Test("a rollback's version is a whole number from 1; the message names the template")
    func rollback() throws {
        #expect(try TemplateRollback(validating: Self.body(#"{"version":2}"#), template: "cafe").version == 2)
        #expect(throws: HTTPError(.unprocessableContent, "version must be a whole number of one of the template's versions (GET /api/v1/templates/cafe)")) {
            try TemplateRollback(validating: Self.body(#"{"version":1.5}"#), template: "cafe")
        }
    }
}
