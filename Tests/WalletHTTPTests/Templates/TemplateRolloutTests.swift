import Foundation
import PasswrightTesting
import Testing

/// A new template version reaches every installed pass: each registered device gets exactly one
/// push, finds every pass of the template among the serials updated since its tag, and fetches the
/// pass rendered from the new version; another instance on the same database serves that version
/// without a restart.
@Suite("Template roll-out")
struct TemplateRolloutTests {
    static let loyalty = PushTypes.loyalty

    @Test("a new version pushes each of 6 devices once; each lists its pass's serial and fetches the new label", arguments: Engine.selected)
    func newVersionReachesEveryDevice(engine: Engine) async throws {
        try await withStandIn { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                let admin = server.adminClient
                let serials = ["ROLL-1", "ROLL-2", "ROLL-3"]
                var devices: [(device: SimulatedDevice, serial: String, tag: String, token: String)] = []
                for serial in serials {
                    let token = "roll-\(serial)-\(UUID().uuidString)"
                    _ = try await admin.issue(serial: serial, authenticationToken: token)
                    for label in ["phone", "watch"] {
                        let device = SimulatedDevice(label)
                        #expect(try await device.register(server.client, passType: Self.loyalty, serial: serial, authenticationToken: token) == 201)
                        let tag = try await device.updatedSerials(server.client, passType: Self.loyalty).json()["lastUpdated"].string.orThrow("no tag")
                        devices.append((device, serial, tag, token))
                    }
                }
                #expect(try standIn.requests().isEmpty)

                let upload = try await server.upload("loyalty", TemplateZip.sample(editingPassJSON: TemplateVersionTests.relabelled("Beans")))
                #expect(upload.status == 200, "\(upload)")
                #expect(try upload.json()["passesAffected"].number == 3)
                let tokens = Set(devices.map(\.device.pushToken))
                _ = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: tokens) }
                try await eventually("the outbox empties") { try await admin.pushStats()["queued"].number == 0 ? true : nil }
                try await Task.sleep(for: .milliseconds(600))  // several worker rounds: a duplicate would show by now
                let requests = try standIn.requests()
                #expect(requests.count == devices.count, "exactly one push per device: \(requests.map(\.token))")
                #expect(Set(requests.map(\.token)) == tokens)

                for (device, serial, tag, token) in devices {
                    let listed = try await device.updatedSerials(server.client, passType: Self.loyalty, since: tag)
                    #expect(listed.status == 200)
                    #expect(try listed.json()["serialNumbers"] == [.string(serial)])
                    let fetched = try await server.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/\(serial)", headers: [("Authorization", "ApplePass \(token)")])
                    #expect(fetched.status == 200)
                    let pass = try ServedPass(archive: fetched.body)
                    #expect(pass.passJSON["storeCard"]["primaryFields"][0]["label"].string == "Beans")
                    #expect(pass.fieldValue("member") == (try Samples.record("loyalty"))["member"]["name"], "the pass keeps its own data")
                }
            }
        }
    }

    @Test("a second instance on the same PostgreSQL serves the version the first one made current, without a restart",
          .enabled(if: Engine.selected.contains(.postgres)))
    func secondInstanceServesTheNewVersion() async throws {
        try await TestEngine.postgres.withLocation { database in
            try await withService(on: database) { first in
                try await withService(on: database) { second in
                    let token = "two-instances-\(UUID().uuidString)"
                    _ = try await first.adminClient.issue(serial: "TWO-1", authenticationToken: token)
                    let before = try await second.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/TWO-1", headers: [("Authorization", "ApplePass \(token)")])
                    #expect(try ServedPass(archive: before.body).passJSON["storeCard"]["primaryFields"][0]["label"].string == "Points")
                    let lastModified = try #require(before.header("last-modified"))

                    #expect(try await first.upload("loyalty", TemplateZip.sample(editingPassJSON: TemplateVersionTests.relabelled("Beans"))).status == 200)
                    try await eventually("the roll-out completes") {
                        try await second.api("GET", "/api/v1/templates/loyalty").json()["passesBehind"].number == 0 ? true : nil
                    }
                    let after = try await second.client.send(
                        "GET", "/wallet/v1/passes/\(Self.loyalty)/TWO-1", headers: [("Authorization", "ApplePass \(token)"), ("If-Modified-Since", lastModified)])
                    #expect(after.status == 200, "Last-Modified moved forward, so the old date is not 304")
                    #expect(try ServedPass(archive: after.body).passJSON["storeCard"]["primaryFields"][0]["label"].string == "Beans")
                    #expect(try await second.api("GET", "/api/v1/templates/loyalty").json()["currentVersion"].number == 2)
                }
            }
        }
    }
}
