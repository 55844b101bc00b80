import Foundation
import PasswrightTesting
import Testing
import WalletCore
import WalletHTTP

/// Pass types of the sample templates the push tests use.
enum PushTypes {
    static let loyalty = "pass.dev.passwright.loyalty"
    static let concert = "pass.dev.passwright.concert"
}

/// A Wallet device as the push tests drive it: a library identifier and an APNs token.
struct SimulatedDevice: Sendable, Hashable {
    let identifier: String
    let pushToken: String

    /// A device with a fresh identifier and a fresh 64-digit hex token (what iOS sends).
    init(_ label: String = "device") {
        identifier = "\(label)-\(UUID().uuidString.lowercased())"
        pushToken = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// Registers for a pass (web service endpoint 1) and returns the status.
    func register(_ client: RawHTTPClient, passType: String, serial: String, authenticationToken: String) async throws -> Int {
        try await client.send(
            "POST", "/wallet/v1/devices/\(identifier)/registrations/\(passType)/\(escape(serial))",
            headers: [("Authorization", "ApplePass \(authenticationToken)")], body: Data(#"{"pushToken":"\#(pushToken)"}"#.utf8)
        ).status
    }

    /// Asks which passes of the type changed (web service endpoint 2), as a device does after a push.
    func updatedSerials(_ client: RawHTTPClient, passType: String, since tag: String? = nil) async throws -> RawResponse {
        try await client.send("GET", "/wallet/v1/devices/\(identifier)/registrations/\(passType)" + (tag.map { "?passesUpdatedSince=\($0)" } ?? ""))
    }
}

/// The admin API of a server that may run in this process or as a child.
struct AdminClient: Sendable {
    let client: RawHTTPClient
    let adminToken: String

    /// A JSON request with the admin bearer token.
    func send(_ method: String, _ path: String, json: JSON? = nil) async throws -> RawResponse {
        try await client.send(method, path, headers: [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")], body: json?.data)
    }

    /// Issues a pass from a sample record with a known authentication token; fails on anything but 201.
    func issue(template: String = "loyalty", serial: String, authenticationToken: String) async throws -> JSON {
        let request: JSON = ["template": .string(template), "serialNumber": .string(serial),
                             "data": try Samples.record(template, authenticationToken: authenticationToken)]
        let response = try await send("POST", "/api/v1/passes", json: request)
        try #require(response.status == 201, "issue failed: \(response)")
        return try response.json()
    }

    /// PATCHes a pass's data (JSON merge patch); fails on anything but 200 and returns the outcome.
    func update(_ passType: String, _ serial: String, data: JSON) async throws -> JSON {
        let response = try await send("PATCH", "/api/v1/passes/\(passType)/\(escape(serial))", json: ["data": data])
        try #require(response.status == 200, "update failed: \(response)")
        return try response.json()
    }

    /// `GET /api/v1/push/stats`.
    func pushStats() async throws -> JSON {
        let response = try await send("GET", "/api/v1/push/stats")
        try #require(response.status == 200, "push stats failed: \(response)")
        return try response.json()
    }

    /// Waits until no push is queued or in flight: every claimed push has had its answer applied.
    /// (`queued` alone turns 0 when the worker claims, before APNs answers.)
    func outboxEmpties(timeout: Duration = .seconds(60)) async throws {
        try await eventually("the outbox empties", timeout: timeout) {
            let stats = try await pushStats()
            return stats["queued"].number == 0 && stats["inFlight"].number == 0 ? true : nil
        }
    }

    /// Waits until the worker has counted `count` pushes as sent and returns the stats then. The worker
    /// counts a round's pushes just after settling them, so an empty outbox can be seen a moment
    /// before the count, never the count before the empty outbox: wait for this, not for `queued == 0`.
    @discardableResult
    func pushesSent(_ count: Int, timeout: Duration = .seconds(60)) async throws -> JSON {
        try await eventually("\(count) pushes are counted as sent", timeout: timeout) {
            let stats = try await pushStats()
            return stats["sent"].number == Double(count) ? stats : nil
        }
    }

    /// `registeredDevices` of a pass, from `GET /api/v1/passes/{type}/{serial}`.
    func registeredDevices(_ passType: String, _ serial: String) async throws -> Int {
        let response = try await send("GET", "/api/v1/passes/\(passType)/\(escape(serial))")
        try #require(response.status == 200, "read pass failed: \(response)")
        return Int(try (try response.json())["registeredDevices"].number.orThrow("no registeredDevices"))
    }
}

extension TestService {
    var adminClient: AdminClient { AdminClient(client: client, adminToken: adminToken) }
}

/// Polls `probe` (up to `timeout`) until it returns a value; fails naming `what` otherwise.
@discardableResult
func eventually<T>(_ what: String, timeout: Duration = .seconds(60), _ probe: () async throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
        if let value = try await probe() { return value }
        guard ContinuousClock.now < deadline else { throw FixtureError("\(what) did not happen within \(timeout)") }
        try await Task.sleep(for: .milliseconds(25))
    }
}

/// Polls until `condition` holds; fails naming `what` otherwise.
func eventually(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
    _ = try await eventually(what, timeout: timeout) { try await condition() ? true : nil }
}

/// A push worker that notices work at once and retries quickly, so tests need not wait long.
func quickWorker(maximumBackoff: Duration = .seconds(1), idleDelay: Duration = .milliseconds(20)) -> PushWorkerConfiguration {
    PushWorkerConfiguration(idleDelay: idleDelay, baseBackoff: .milliseconds(200), maximumBackoff: maximumBackoff)
}
