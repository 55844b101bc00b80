import Foundation
import PasswrightTesting
import Testing
import WalletHTTP

/// `GET /api/v1/analytics` and the analytics gauges of `/metrics` on a running service: what passes
/// issued through the API and registered through Apple's protocol add up to; refusals name the
/// parameter; the `analytics:read` scope is needed. On both engines.
@Suite(.timeLimit(.minutes(5))) struct AnalyticsAPITests {
    static let loyalty = "pass.dev.passwright.loyalty"

    static func send(_ server: TestService, _ target: String, key: String) async throws -> RawResponse {
        try await server.client.send("GET", target, headers: [("Authorization", "Bearer \(key)")])
    }

    @Test(arguments: Engine.selected)
    func theReportAddsUpWhatHappenedToday(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            for serial in ["AN-1", "AN-2"] { _ = try await server.issue(serial: serial) }
            let token = try #require(try await server.servedPass(Self.loyalty, "AN-1").authenticationToken)
            for device in ["phone", "watch"] {
                let registered = try await server.client.send(
                    "POST", "/wallet/v1/devices/\(device)/registrations/\(Self.loyalty)/AN-1",
                    headers: [("Authorization", "ApplePass \(token)")], body: Data(#"{"pushToken":"aa11"}"#.utf8))
                #expect(registered.status == 201, "\(registered)")
            }

            let created = try await server.api("POST", "/api/v1/keys", json: ["name": "charts", "scopes": ["analytics:read"]])
            try #require(created.status == 201, "\(created)")
            let key = try #require(try created.json()["secret"].string)
            let report = try await Self.send(server, "/api/v1/analytics?template=loyalty", key: key)
            #expect(report.status == 200, "\(report)")
            let body = try report.json()
            #expect(body["template"].string == "loyalty" && body["interval"].string == "day")
            let periods = body["periods"].array ?? []
            #expect(periods.count == 30 && body["to"] == periods.last?["start"])
            let today = try #require(periods.last)
            #expect(today["counts"]["issued"].number == 2 && today["counts"]["installed"].number == 1 && today["counts"]["devicesAdded"].number == 2, "\(report.text)")
            #expect(today["activePasses"].number == 1 && today["devices"].number == 2)
            #expect(body["activePasses"].number == 1 && body["devices"].number == 2)
            #expect(body["totals"]["issued"].number == 2)
            #expect((body["versions"].array ?? []).contains { $0["template"].string == "loyalty" && $0["day"] == body["to"] }, "the sample template was published today")
            let weekly = try await Self.send(server, "/api/v1/analytics?interval=week", key: key)
            let weeks = try weekly.json()["periods"].array ?? []
            #expect(weekly.status == 200 && weeks.count == 12, "\(weekly)")

            let metrics = try await server.client.send("GET", "/metrics").text
            #expect(metrics.contains("\npasswright_active_passes 1.0\n") && metrics.contains("\npasswright_active_passes{template=\"loyalty\"} 1.0\n"), "\(metrics)")
            #expect(metrics.contains("\npasswright_registered_devices 2.0\n"))

            for (query, names) in [
                ("interval=month", "interval"), ("from=2026-12-09&to=2026-12-08", "from"), ("from=2026-13-01", "from"),
                ("from=2020-01-01&to=2026-12-08", "366"), ("template=nope", "nope"),
            ] {
                let refused = try await Self.send(server, "/api/v1/analytics?\(query)", key: key)
                #expect(refused.status == 422 && refused.text.contains(names), "\(query): \(refused)")
            }

            let other = try await server.api("POST", "/api/v1/keys", json: ["name": "reader", "scopes": ["passes:read", "events:read"]])
            let otherKey = try #require(try other.json()["secret"].string)
            let forbidden = try await Self.send(server, "/api/v1/analytics", key: otherKey)
            #expect(forbidden.status == 403 && forbidden.text.contains("analytics:read"), "\(forbidden)")
            #expect(try await server.client.send("GET", "/api/v1/analytics").status == 401)
        }
    }
}
