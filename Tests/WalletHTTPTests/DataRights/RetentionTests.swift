import Foundation
import PasswrightTesting
import Testing
import WalletCore

/// Retention on a running service, on both engines: one round as of a later time prunes history and
/// device logs older than their settings, erases voided passes past theirs (audited as the
/// `retention` job), keeps everything younger, and drops an erased pass's registrations once its
/// grace is over; with `voidExpired`, passes past the expiration date their last write rendered are
/// voided through the pipeline (pushed, audited as `expiry`).
@Suite(.timeLimit(.minutes(5))) struct RetentionTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    @Test(arguments: Engine.selected)
    func aRoundRemovesWhatOutlivedItsSettingAndNothingElse(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            _ = try await server.issue(serial: "R-1")
            _ = try await server.issue(serial: "R-2")
            let token = try #require(try await server.servedPass(Self.loyalty, "R-1").authenticationToken)
            #expect(try await server.client.send(
                "POST", "/wallet/v1/devices/device-r/registrations/\(Self.loyalty)/R-1", headers: [("Authorization", "ApplePass \(token)")],
                body: Data(#"{"pushToken":"a1"}"#.utf8)).status == 201)
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/R-1", json: ["voided": true]).status == 200)
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/R-2", json: ["data": ["points": 5]]).status == 200)
            #expect(try await server.client.send("POST", "/wallet/v1/log", headers: [("Content-Type", "application/json")],
                                                 body: Data(#"{"logs":["a line"]}"#.utf8)).status == 200)
            let passes = server.service.services.passes
            let day = Duration.seconds(86_400)
            let settings = RetentionSettings(history: day, deviceLogs: day, voidedPasses: day)

            // As of now nothing is old enough.
            #expect(try await passes.applyRetention(settings).total == 0)

            // Two days on: the history, the log line and the voided pass go; the live pass stays.
            let later = Date().addingTimeInterval(2 * 86_400)
            let round = try await passes.applyRetention(settings, now: later)
            #expect(round.historyRows == 2 && round.deviceLogs == 1 && round.erasedPasses == 1 && round.erasedRegistrations == 0, "\(round)")
            let erased = try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/R-1/export").json()["passes"].array?.first
            #expect(erased?["erasedAt"].string != nil && erased?["voided"] == true)
            #expect(erased?["devices"].array?.count == 1, "the device keeps its registration through the grace")
            let kept = try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/R-2/export").json()["passes"].array?.first
            #expect(kept?["erasedAt"] == .null && kept?["data"]["points"] == 5)
            let audit = try await server.api("GET", "/api/v1/audit?action=pass.erase").json()["entries"].array ?? []
            #expect(audit.map { $0["actor"] } == ["retention"] && audit.map { $0["source"] } == ["system"])
            #expect(try await server.api("GET", "/api/v1/logs").json()["logs"] == [])

            // Again at the same time: nothing more; past the grace, the erased pass's device goes.
            #expect(try await passes.applyRetention(settings, now: later).total == 0)
            let afterGrace = try await passes.applyRetention(RetentionSettings(deviceLogs: nil), now: Date().addingTimeInterval(31 * 86_400))
            #expect(afterGrace.erasedRegistrations == 1, "\(afterGrace)")
            #expect(try await server.service.store.registeredDevices(for: .init(passTypeIdentifier: Self.loyalty, serialNumber: "R-1")).isEmpty)
        }
    }

    @Test(arguments: Engine.selected)
    func passesPastTheirExpirationDateAreVoidedAndPushed(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let format = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
            let now = Date()
            _ = try await server.issue(serial: "X-1", extra: ["expirationDate": .string(now.addingTimeInterval(86_400).formatted(format))])
            _ = try await server.issue(serial: "X-2", extra: ["expirationDate": .string(now.addingTimeInterval(10 * 86_400).formatted(format))])
            _ = try await server.issue(serial: "X-3")
            // A later change moves X-3's date in: the write records it.
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/X-3", json: [
                "expirationDate": .string(now.addingTimeInterval(3600).formatted(format)),
            ]).status == 200)
            let token = try #require(try await server.servedPass(Self.loyalty, "X-1").authenticationToken)
            #expect(try await server.client.send(
                "POST", "/wallet/v1/devices/device-x/registrations/\(Self.loyalty)/X-1", headers: [("Authorization", "ApplePass \(token)")],
                body: Data(#"{"pushToken":"a2"}"#.utf8)).status == 201)
            let passes = server.service.services.passes
            let settings = RetentionSettings(deviceLogs: nil, voidExpired: true)

            #expect(try await passes.applyRetention(settings, now: now).voidedPasses == 0, "nothing has expired yet")
            let round = try await passes.applyRetention(settings, now: now.addingTimeInterval(2 * 86_400))
            #expect(round.voidedPasses == 2, "\(round)")
            let voided = { (serial: String) async throws -> Bool? in
                try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/\(serial)").json()["voided"].bool
            }
            let states = [try await voided("X-1"), try await voided("X-2"), try await voided("X-3")]
            #expect(states == [true, false, true])
            let audit = try await server.api("GET", "/api/v1/audit?action=pass.void").json()["entries"].array ?? []
            #expect(Set(audit.compactMap { $0["target"].string }) == ["pass \(Self.loyalty)/X-1", "pass \(Self.loyalty)/X-3"])
            #expect(audit.allSatisfy { $0["actor"] == "expiry" && $0["source"] == "system" })
            #expect(try await server.api("GET", "/api/v1/push/stats").json()["queued"].number ?? 0 >= 1, "X-1's device is pushed")
            #expect(try await passes.applyRetention(settings, now: now.addingTimeInterval(2 * 86_400)).voidedPasses == 0, "a voided pass is not voided again")
            #expect(try await passes.applyRetention(RetentionSettings(deviceLogs: nil), now: now.addingTimeInterval(30 * 86_400)).voidedPasses == 0, "off by default")
        }
    }
}
