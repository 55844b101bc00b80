import Foundation
import PasswrightTesting
import Testing
import WalletHTTP

/// `GET /api/v1/events` on a running service: what the API and the device protocol did, in order,
/// paged with the cursor a consumer keeps; refusals name what is wrong. On both engines.
@Suite(.timeLimit(.minutes(2))) struct EventAPITests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// The events after `after` (all pages), waiting for at least `count` of them that are not the
    /// start-up's `template.published` (PostgreSQL shows an event once every older transaction of the
    /// server has ended, so the published templates alone must not end the wait).
    static func events(_ server: TestService, after: String? = nil, query: String = "", count: Int) async throws -> (events: [JSON], next: String) {
        for _ in 0..<3_000 {
            var events: [JSON] = []
            var cursor = after
            while true {
                let response = try await server.api("GET", "/api/v1/events?limit=2\(cursor.map { "&after=\($0)" } ?? "")\(query)")
                try #require(response.status == 200, "\(response)")
                let page = try response.json()
                events += page["events"].array ?? []
                cursor = page["next"].string
                if page["hasMore"] != true { break }
            }
            if events.filter({ $0["type"].string != "template.published" }).count >= count { return (events, cursor ?? "") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return ([], "")
    }

    @Test(arguments: Engine.selected)
    func theLogShowsWhatHappenedInOrderAndResumesFromTheCursor(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            _ = try await server.issue(serial: "EV-1")
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/EV-1", json: ["data": ["points": 9]])
            #expect(patched.status == 200, "\(patched)")
            let token = try #require(try await server.servedPass(Self.loyalty, "EV-1").authenticationToken)
            let registered = try await server.client.send(
                "POST", "/wallet/v1/devices/dev-1/registrations/\(Self.loyalty)/EV-1",
                headers: [("Authorization", "ApplePass \(token)")], body: Data(#"{"pushToken":"abc123"}"#.utf8))
            #expect(registered.status == 201, "\(registered)")

            let first = try await Self.events(server, count: 3)
            let issued = first.events.filter { $0["type"].string != "template.published" }
            try #require(issued.map { $0["type"].string } == ["pass.issued", "pass.updated", "pass.installed"], "\(first.events)")
            #expect(issued.allSatisfy { $0["serialNumber"].string == "EV-1" && $0["template"].string == "loyalty" && $0["version"] == 1 })
            #expect(issued[1]["data"]["changes"] == ["data.points"])
            #expect(issued[2]["actor"].string == "device" && issued[2]["data"]["devices"] == 1)
            let text = first.events.map(\.description).joined()
            #expect(!text.contains("dev-1") && !text.contains("abc123") && !text.contains(token), "no device data or token")

            // A consumer resumes from its cursor and sees only what came after.
            let voided = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/EV-1", json: ["voided": true])
            #expect(voided.status == 200)
            let after = try await Self.events(server, after: first.next, count: 1)
            #expect(after.events.map { $0["type"].string } == ["pass.voided"], "\(after.events)")
            let byType = try await Self.events(server, query: "&type=pass.voided,pass.installed", count: 2)
            #expect(byType.events.map { $0["type"].string } == ["pass.installed", "pass.voided"])
        }
    }

    @Test func refusalsNameWhatIsWrongAndTheLogNeedsTheAdminToken() async throws {
        try await withService(engine: .sqlite) { server in
            let anonymous = try await server.client.send("GET", "/api/v1/events")
            #expect(anonymous.status == 401)
            let badCursor = try await server.api("GET", "/api/v1/events?after=yesterday")
            #expect(badCursor.status == 422 && badCursor.text.contains("after 'yesterday' is not a cursor"), "\(badCursor)")
            let badType = try await server.api("GET", "/api/v1/events?type=pass.eaten")
            #expect(badType.status == 422 && badType.text.contains("type 'pass.eaten' is not an event type"), "\(badType)")
            let badLimit = try await server.api("GET", "/api/v1/events?limit=5000")
            #expect(badLimit.status == 422 && badLimit.text.contains("limit must be 1 to 1000"), "\(badLimit)")
        }
    }
}
