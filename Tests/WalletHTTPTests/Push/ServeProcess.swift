import Foundation
import PasswrightTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `passwright serve` (the built binary, a `ServeChild`) on port 0, with the sample templates, the
/// shared dev identities, and an admin token and link key the test chose (instances sharing a
/// database must share both).
final class ServeProcess: Sendable {
    let served: ServeChild
    let admin: AdminClient

    private init(served: ServeChild, adminToken: String) {
        self.served = served
        admin = AdminClient(client: RawHTTPClient(port: served.port), adminToken: adminToken)
    }

    var child: RunningProcess { served.process }
    var port: Int { served.port }
    var client: RawHTTPClient { admin.client }

    /// Starts a server keeping its files in `dataDirectory`, on `database` (its SQLite file there when
    /// `nil`), with `options` added (push settings, say); returns once it listens.
    static func start(
        dataDirectory: URL, database: String? = nil, options: [String], adminToken: String, linkKey: String
    ) async throws -> ServeProcess {
        let identities = try ServiceIdentities.shared()
        var arguments = [
            "--data-dir", dataDirectory.path, "--templates", Samples.templatesFolder.path,
            "--identities", identities.folder.path, "--public-url", TestService.publicURL, "--log-level", "warning",
            // Every change goes out at once: the tests count pushes right after each update.
            "--quiet-hours", "off", "--notification-spacing", "0",
        ]
        if let database { arguments += ["--database", database] }
        let served = try await ServeChild.start(
            arguments + options, environment: ["PASSWRIGHT_ADMIN_TOKEN": adminToken, "PASSWRIGHT_LINK_KEY": linkKey])
        return ServeProcess(served: served, adminToken: adminToken)
    }

    /// SIGKILL: no chance to finish anything, as in a crash or an OOM kill.
    func kill() async throws -> ProcessResult { try await served.kill() }

    /// SIGTERM, then waits for the graceful exit.
    func stop() async throws -> ProcessResult { try await served.stop() }
}

/// A fresh admin token and hex link key for servers started by one test.
func serveSecrets() -> (adminToken: String, linkKey: String) {
    let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    return ("admin-\(UUID().uuidString)", hex)
}

extension Array where Element == SimulatedDevice {
    /// `count` fresh devices.
    static func fresh(_ count: Int, label: String = "device") -> [SimulatedDevice] {
        (0..<count).map { _ in SimulatedDevice(label) }
    }

    /// Registers every device for one pass through the Wallet web service, `parallel` at a time;
    /// fails unless each answers 201.
    func register(_ client: RawHTTPClient, passType: String, serial: String, authenticationToken: String, parallel: Int = 16) async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var statuses: [Int] = []
            for (index, device) in enumerated() {
                if index >= parallel, let status = try await group.next() { statuses.append(status) }
                group.addTask { try await device.register(client, passType: passType, serial: serial, authenticationToken: authenticationToken) }
            }
            for try await status in group { statuses.append(status) }
            let refused = statuses.filter { $0 != 201 }
            try #require(refused.isEmpty, "\(refused.count) of \(count) registrations failed: \(Set(refused))")
        }
    }
}
