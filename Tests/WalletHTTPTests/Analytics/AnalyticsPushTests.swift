import Foundation
import Testing

/// The programme's figures from pushes that really went out: the real worker and APNs client against
/// the stand-in, which accepts one device's push and refuses the other's token, so the push counts,
/// the failure's reason and the removal it causes come from APNs's answers, not from calls to the store.
@Suite("Analytics from APNs's answers")
struct AnalyticsPushTests {
    static let loyalty = PushTypes.loyalty

    @Test("an accepted push and a BadDeviceToken: sent 1, failed 1 by reason, the pass whose only device it was removed", arguments: Engine.selected)
    func pushOutcomes(engine: Engine) async throws {
        let bad = SimulatedDevice("analytics-bad"), good = SimulatedDevice("analytics-good")
        try await withStandIn(rules: [bad.pushToken: "BadDeviceToken"]) { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                let admin = server.adminClient, authToken = "analytics-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "AN-A", authenticationToken: authToken)
                _ = try await admin.issue(serial: "AN-B", authenticationToken: authToken)
                #expect(try await bad.register(server.client, passType: Self.loyalty, serial: "AN-A", authenticationToken: authToken) == 201)
                #expect(try await good.register(server.client, passType: Self.loyalty, serial: "AN-A", authenticationToken: authToken) == 201)
                #expect(try await bad.register(server.client, passType: Self.loyalty, serial: "AN-B", authenticationToken: authToken) == 201)

                #expect(try await admin.update(Self.loyalty, "AN-A", data: ["points": 1])["pushesQueued"].number == 2)
                _ = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: [bad.pushToken, good.pushToken]) }
                try await admin.outboxEmpties()

                let report = try await server.api("GET", "/api/v1/analytics?template=loyalty").json()
                let totals = report["totals"]
                #expect(totals["issued"].number == 2 && totals["updated"].number == 1, "\(totals)")
                #expect(totals["installed"].number == 2, "each pass's first device: \(totals)")
                #expect(totals["devicesAdded"].number == 3 && totals["devicesRemoved"].number == 2, "the bad device's two registrations went: \(totals)")
                #expect(totals["removed"].number == 1, "AN-B lost its only device: \(totals)")
                #expect(totals["pushesSent"].number == 1 && totals["pushesFailed"].number == 1, "\(totals)")
                #expect(report["pushFailuresByReason"] == ["BadDeviceToken": 1], "\(report["pushFailuresByReason"])")
                #expect(report["activePasses"].number == 1 && report["devices"].number == 1, "\(report)")
            }
        }
    }
}
