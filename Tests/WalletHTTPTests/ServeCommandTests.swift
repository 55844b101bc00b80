import Foundation
import PasswrightTesting
import Testing

/// `passwright serve` as a user runs it: the built binary as a child process.
@Suite("passwright serve")
struct ServeCommandTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// The binary under test: `$PASSWRIGHT_BINARY`, else `<package root>/.build/debug/passwright`.
    static func binary() throws -> URL {
        try Repository.passwrightBinary()
    }

    @Test("serve on port 0: generated admin token file, health, drain on SIGTERM with exit 0, no secret in the logs")
    func serve() async throws {
        let identities = try ServiceIdentities.shared()
        try await withScratch { scratch in
            let dataDirectory = scratch.appendingPathComponent("data")
            // The child gets no PASSWRIGHT_* variable from this process: the admin token must be generated.
            let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PASSWRIGHT_") }
            let child = try RunningProcess(try Self.binary(), [
                "serve", "--port", "0", "--data-dir", dataDirectory.path, "--templates", Samples.templatesFolder.path,
                "--identities", identities.folder.path, "--public-url", "https://passes.example.test",
            ], environment: environment, directory: scratch)
            var finished = false
            defer { if !finished { child.signal(SIGKILL) } }

            let port = try #require(Int(try await child.waitForStderr(#"serving on http://127\.0\.0\.1:(\d+)"#)))
            let client = RawHTTPClient(port: port)

            // The admin token: generated into <data-dir>/admin-token with mode 0600, its place named.
            let tokenFile = dataDirectory.appendingPathComponent("admin-token")
            let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let adminToken = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(adminToken.count >= 32)
            #expect(child.stderrText.contains(tokenFile.path), "it says where the token is")
            let linkKey = try String(contentsOf: dataDirectory.appendingPathComponent("link-key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)

            #expect(try await client.send("GET", "/healthz").status == 200)
            let healthcheck = try await Subprocess.run(try Self.binary(), ["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz"], environment: environment)
            #expect(healthcheck.status == 0, "the image's HEALTHCHECK command: \(healthcheck)")

            // Use every secret once: admin token, a pass's authentication token, a device's push token.
            let authToken = "serve-auth-token-\(UUID().uuidString)"
            let pushToken = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() + "c0ffee"
            let record = try Samples.record("loyalty", authenticationToken: authToken)
            let admin = [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")]
            let issued = try await client.send("POST", "/api/v1/passes", headers: admin,
                                               body: JSON.object(["template": "loyalty", "serialNumber": "S-1", "data": record]).data)
            #expect(issued.status == 201, "\(issued)")
            let registered = try await client.send("POST", "/wallet/v1/devices/serve-device/registrations/\(Self.loyalty)/S-1",
                                                   headers: [("Authorization", "ApplePass \(authToken)")], body: Data(#"{"pushToken":"\#(pushToken)"}"#.utf8))
            #expect(registered.status == 201)
            #expect(try await client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/S-1", headers: [("Authorization", "ApplePass \(authToken)")]).status == 200)
            #expect(try await client.send("GET", "/api/v1/templates", headers: [("Authorization", "Bearer wrong")]).status == 401)

            // A request still uploading its body when SIGTERM arrives is finished before the exit.
            let body = JSON.object(["template": "loyalty", "serialNumber": "S-2", "data": try Samples.record("loyalty")]).data
            let connection = try await client.open()
            try await onThread {
                // With Expect: 100-continue the server's interim answer proves it has taken the head, so
                // the request is in flight before SIGTERM however slowly the server runs (a sanitizer build).
                try connection.write("POST /api/v1/passes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(adminToken)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
                _ = try connection.readHead()
                try connection.write(body.prefix(10))
            }
            child.signal(SIGTERM)
            _ = try await child.waitForStderr(#""message":"draining""#)
            let inFlight = try await onThread {
                try connection.write(body.dropFirst(10))
                return try connection.readResponse()
            }
            #expect(inFlight.status == 201, "the in-flight request completes: \(inFlight)")
            let result = try await child.wait()
            finished = true
            #expect(result.status == 0, "\(result)")
            #expect((try? await client.send("GET", "/healthz")) == nil, "the port is closed after the exit")

            // The logs name no secret that passed through the server.
            for (name, secret) in [("admin token", adminToken), ("authentication token", authToken), ("push token", pushToken), ("link key", linkKey)] {
                #expect(!result.err.contains(secret), "the \(name) is in the log")
                #expect(!result.out.contains(secret), "the \(name) is on stdout")
            }
            #expect(result.err.contains(#""message":"request""#), "the access log was written, so the check above means something")
        }
    }
}
