import Foundation
import PassModel
import PasswrightTesting
import Testing
@testable import WalletCore
@testable import WalletHTTP
import WalletStore

/// The console reads through the same service calls the REST API writes through: a PATCH lands in
/// the pass's history as `api` with the keys it changed; `console` edits, search, history and
/// devices come from `PassService`. On both engines.
@Suite(.timeLimit(.minutes(2))) struct PassHistoryAPITests {
    static let loyalty = "pass.dev.passwright.loyalty"

    @Test(arguments: Engine.selected)
    func aPatchThroughTheAPIIsRecordedAsAPIWithItsKeys(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            _ = try await server.issue(serial: "HIST-1")
            let key = PassKey(passTypeIdentifier: Self.loyalty, serialNumber: "HIST-1")
            #expect(try await server.service.store.passUpdates(for: key).isEmpty)

            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/HIST-1", json: ["data": ["points": 1500, "tier": "Platinum"]])
            #expect(patched.status == 200, "\(patched)")
            let tag = try patched.json()["updateTag"].string
            let voided = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/HIST-1", json: ["voided": true])
            #expect(voided.status == 200, "\(voided)")
            // A PATCH that changes nothing writes no history.
            let again = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/HIST-1", json: ["voided": true])
            #expect(try again.json()["changed"] == false)
            // A template-wide PATCH records each pass it changed, as api too.
            let wide = try await server.api("PATCH", "/api/v1/templates/loyalty/passes", json: ["data": ["tier": "Silver"]])
            #expect(wide.status == 200, "\(wide)")

            let history = try await server.service.store.passUpdates(for: key)
            #expect(history.map(\.source) == ["api", "api", "api"], "\(history)")
            #expect(history.map(\.changes) == [["data.tier"], ["voided"], ["data.points", "data.tier"]])
            #expect(history.last.map { String($0.updateTag) } == tag)
            let current = try #require(try await server.service.store.pass(key))
            #expect(history.first?.updateTag == current.updateTag)
        }
    }

    @Test(arguments: Engine.selected)
    func theConsolesCallsShareTheServiceWithTheAPI(engine: Engine) async throws {
        try await PassServiceTests().withPassService(engine: engine) { service, store in
            let a = try await service.issue(try PassServiceTests.issue("CON-A"), origin: .api).key
            let b = try await service.issue(try PassServiceTests.issue("CON-B"), origin: .api).key
            _ = try await service.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", for: a)

            let edit = try await service.update(a, PassServiceTests.data(["points": .number(9)]), origin: WriteOrigin(actor: PassUpdateRecord.console, source: .console))
            #expect(edit.changed && edit.pushesQueued == 1)
            let history = try await service.history(for: a)
            #expect(history.map(\.source) == ["console"] && history.first?.changes == ["data.points"])
            #expect(history.first?.updateTag == edit.pass.updateTag)

            let devices = try await service.devices(for: a)
            #expect(devices.map(\.deviceLibraryIdentifier) == ["device-1"])
            #expect(devices.first?.pushQueued == true && devices.first?.lastPushStatus == nil)

            let page = try await service.search(PassSearch(text: "CON-", template: "loyalty", limit: 1))
            #expect(page.passes.map(\.key) == [a] && page.next == a)
            let rest = try await service.search(PassSearch(text: "CON-", template: "loyalty", after: page.next, limit: 1))
            #expect(rest.passes.map(\.key) == [b] && rest.next == nil)
            #expect(try await service.search(PassSearch(text: "CON-", template: "coupon")).passes.isEmpty)
        }
    }
}
