import Foundation
import PassModel
import Testing
import WalletStore

/// Apple's Wallet web service protocol end to end, as a device drives it (Apple's Wallet Web Service Reference), on both engines.
@Suite("Wallet device flow")
struct DeviceFlowTests {
    static let passType = "pass.dev.passwright.loyalty"

    @Test("issue, register, list, fetch, update, refetch, verify, unregister, log", arguments: Engine.selected)
    func deviceFlow(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let client = server.client
            // Issue through the REST API.
            let issued = try await server.issue(serial: "FLOW-1")
            #expect(issued["passTypeIdentifier"].string == Self.passType)
            #expect(issued["serialNumber"].string == "FLOW-1")
            let firstTag = try (issued["updateTag"].string).orThrow("no updateTag")
            let downloadURL = try (issued["downloadURL"].string).orThrow("no downloadURL")
            #expect(downloadURL.hasPrefix(TestService.publicURL + "/passes/\(Self.passType)/FLOW-1?"))

            // The holder adds the pass; the device learns the token and web service URL from it.
            let added = try await client.send("GET", try TestService.passTarget(of: downloadURL))
            #expect(added.status == 200)
            let pass = try ServedPass(archive: added.body)
            let token = try pass.authenticationToken.orThrow("no authenticationToken in the pass")
            #expect(pass.passJSON["webServiceURL"].string == TestService.publicURL + "/wallet/")
            let auth = [("Authorization", "ApplePass \(token)")]
            let registration = "/wallet/v1/devices/device-a/registrations/\(Self.passType)/FLOW-1"

            // Register (201), then again with a new push token (200, and the new token is stored).
            let first = try await client.send("POST", registration, headers: auth, body: Data(#"{"pushToken":"aa11"}"#.utf8))
            #expect(first.status == 201, "\(first)")
            let again = try await client.send("POST", registration, headers: auth, body: Data(#"{"pushToken":"bb22"}"#.utf8))
            #expect(again.status == 200, "\(again)")
            let key = PassKey(passTypeIdentifier: Self.passType, serialNumber: "FLOW-1")
            let devices = try await server.service.store.registeredDevices(for: key)
            #expect(devices.map { $0.pushToken } == ["bb22"])
            let read = try await server.api("GET", "/api/v1/passes/\(Self.passType)/FLOW-1").json()
            #expect(read["registeredDevices"].number == 1)

            // List serials: without a tag, then with the returned tag.
            let listPath = "/wallet/v1/devices/device-a/registrations/\(Self.passType)"
            let listed = try await client.send("GET", listPath)
            #expect(listed.status == 200)
            let listing = try listed.json()
            #expect(listing["serialNumbers"] == ["FLOW-1"])
            let lastUpdated = try (listing["lastUpdated"].string).orThrow("no lastUpdated")
            #expect(try await client.send("GET", "\(listPath)?passesUpdatedSince=\(lastUpdated)").status == 204)

            // Fetch the pass, then again with If-Modified-Since.
            let passPath = "/wallet/v1/passes/\(Self.passType)/FLOW-1"
            let fetched = try await client.send("GET", passPath, headers: auth)
            #expect(fetched.status == 200)
            #expect(fetched.header("Content-Type") == "application/vnd.apple.pkpass")
            let lastModified = try fetched.header("Last-Modified").orThrow("no Last-Modified")
            let unchanged = try await client.send("GET", passPath, headers: auth + [("If-Modified-Since", lastModified)])
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)

            // Update through the REST API: one push queued for the one registered device.
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/FLOW-1", json: ["data": ["points": 4321, "tier": "Platinum"]])
            #expect(patched.status == 200, "\(patched)")
            let outcome = try patched.json()
            #expect(outcome["changed"].bool == true)
            #expect(outcome["pushesQueued"].number == 1)
            let newTag = try (outcome["updateTag"].string).orThrow("no updateTag")
            #expect(Int64(newTag)! > Int64(firstTag)!)
            let pushes = try await server.service.store.claimPushes(instance: "test", limit: 10, lease: .seconds(60))
            #expect(pushes.map { $0.pushToken } == ["bb22"], "the push goes to the token of the latest registration")

            // The device lists again with its old tag: the serial is back with a larger tag.
            let relisted = try await client.send("GET", "\(listPath)?passesUpdatedSince=\(lastUpdated)")
            #expect(relisted.status == 200)
            let relisting = try relisted.json()
            #expect(relisting["serialNumbers"] == ["FLOW-1"])
            let newLastUpdated = try (relisting["lastUpdated"].string).flatMap { Int64($0) }.orThrow("no lastUpdated")
            #expect(newLastUpdated > Int64(lastUpdated)!)

            // Fetch the new pass and check it with tools that share no code with Passwright.
            let refetched = try await client.send("GET", passPath, headers: auth)
            #expect(refetched.status == 200)
            #expect(refetched.header("Content-Type") == "application/vnd.apple.pkpass")
            let updated = try ServedPass(archive: refetched.body)
            #expect(updated.fieldValue("tier").string == "Platinum")
            #expect(updated.fieldValue("points").number == 4321)
            #expect(updated.authenticationToken == token, "the token never changes")
            let verification = try await updated.opensslVerify(rootCA: try ServiceIdentities.shared().rootCA)
            #expect(verification.status == 0, "openssl smime -verify failed: \(verification)")
            #expect(verification.err.contains("Verification successful"))

            // A PATCH that changes nothing changes nothing.
            let same = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/FLOW-1", json: ["data": ["points": 4321]]).json()
            #expect(same["changed"].bool == false)
            #expect(same["updateTag"].string == newTag)
            #expect(same["pushesQueued"].number == 0)

            // Unregister; the device no longer lists the pass.
            let unregistered = try await client.send("DELETE", registration, headers: auth)
            #expect(unregistered.status == 200)
            #expect(try await server.service.store.registeredDevices(for: key).isEmpty)
            #expect(try await client.send("GET", listPath).status == 204)

            // Device logs are stored and read back through the admin API.
            let posted = try await client.send("POST", "/wallet/v1/log", headers: [("Content-Type", "application/json")],
                                               body: Data(#"{"logs":["first line","second 'line' \"quoted\""]}"#.utf8))
            #expect(posted.status == 200)
            let logs = try await server.api("GET", "/api/v1/logs").json()
            let messages = (logs["logs"].array ?? []).compactMap { $0["message"].string }
            #expect(Set(messages) == ["first line", #"second 'line' "quoted""#])

            // Nothing secret reached the service's log, though the access log saw every request.
            let logged = server.logs.text
            #expect(logged.contains(#""message":"request""#))
            let durations = logged.split(separator: "\n").filter { $0.contains(#""message":"request""#) }.compactMap { line in
                line.firstMatch(of: /"ms":"([^"]*)"/).map { String($0.1) }
            }
            #expect(!durations.isEmpty && durations.allSatisfy { $0.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil }, "access log durations: \(durations)")
            for secret in [token, server.adminToken, "aa11", "bb22", "device-a"] {
                #expect(!logged.contains(secret), "\(secret) is in the log")
            }
        }
    }

    @Test("a second device of the same pass gets its own push token and push", arguments: Engine.selected)
    func twoDevices(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            _ = try await server.issue(serial: "TWO-1", data: try Samples.record("loyalty", authenticationToken: "known-token-0123456789"))
            let auth = [("Authorization", "ApplePass known-token-0123456789")]
            for (device, token) in [("device-a", "aa"), ("device-b", "bb"), ("device-a", "cc")] {
                let response = try await server.client.send("POST", "/wallet/v1/devices/\(device)/registrations/\(Self.passType)/TWO-1",
                                                            headers: auth, body: Data(#"{"pushToken":"\#(token)"}"#.utf8))
                #expect(response.status == (token == "cc" ? 200 : 201), "\(device): \(response)")
            }
            let outcome = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/TWO-1", json: ["data": ["points": 1]]).json()
            #expect(outcome["pushesQueued"].number == 2)
            let pushes = try await server.service.store.claimPushes(instance: "test", limit: 10, lease: .seconds(60))
            #expect(Dictionary(uniqueKeysWithValues: pushes.map { ($0.deviceLibraryIdentifier, $0.pushToken) }) == ["device-a": "cc", "device-b": "bb"])
        }
    }
}
