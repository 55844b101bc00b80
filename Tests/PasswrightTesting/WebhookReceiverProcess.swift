import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Support/webhook-receiver/webhook_receiver.py` as a child process: a real HTTP receiver on
/// 127.0.0.1 that verifies every delivery with the Standard Webhooks reference library and records
/// it (see the script's docstring). Its secrets and rules are files the test rewrites; it reads them
/// for each delivery. Stopped and started again on the same port, it plays a receiver that was down.
public final class WebhookReceiverProcess: Sendable {
    public static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/webhook-receiver/webhook_receiver.py")

    /// One delivery as the receiver saw it.
    public struct Delivery: Decodable, Sendable {
        public var id: String?
        public var timestamp: String?
        public var signatures: Int
        /// Whether `standardwebhooks` verified a signature with one of the secrets.
        public var verified: Bool
        public var type: String?
        /// What the receiver answered.
        public var status: Int
        public var body: String
    }

    public let port: Int
    public let folder: URL
    private let process: Locked<ChildProcess?>

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/hooks")! }
    var secretsFile: URL { folder.appendingPathComponent("secrets.json") }
    var rulesFile: URL { folder.appendingPathComponent("rules.json") }
    var recordFile: URL { folder.appendingPathComponent("deliveries.jsonl") }

    /// Starts the receiver with its files in `folder` (kept across a restart), on `port` (0: any).
    public init(folder: URL, port: Int = 0) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("secrets.json").path) {
            try Data("[]".utf8).write(to: folder.appendingPathComponent("secrets.json"))
            try Data("{}".utf8).write(to: folder.appendingPathComponent("rules.json"))
        }
        let (process, bound) = try PortAnnouncingProcess.start(
            ["python3", Self.script.path, "--port", String(port), "--secrets", folder.appendingPathComponent("secrets.json").path,
             "--rules", folder.appendingPathComponent("rules.json").path, "--record", folder.appendingPathComponent("deliveries.jsonl").path],
            errorFile: folder.appendingPathComponent("receiver.log"), hint: "is `pip install standardwebhooks` done?")
        self.port = bound
        self.process = Locked(process)
    }

    /// The secrets deliveries are verified with (any one verifying is enough).
    public func setSecrets(_ secrets: [String]) throws {
        try JSONEncoder().encode(secrets).write(to: secretsFile, options: .atomic)
    }

    /// The rules of the answers (`fail_first`, `status`, `delay_ms`).
    public func setRules(_ rules: [String: Int]) throws {
        try JSONEncoder().encode(rules).write(to: rulesFile, options: .atomic)
    }

    /// Every delivery so far, in the order received.
    public func deliveries() throws -> [Delivery] {
        guard let data = FileManager.default.contents(atPath: recordFile.path) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONDecoder().decode(Delivery.self, from: Data($0.utf8)) }
    }

    /// Polls the record (up to `timeout`) until `done` holds for it; returns it then.
    public func waitForDeliveries(timeout: Duration = .seconds(60), until done: ([Delivery]) -> Bool) async throws -> [Delivery] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let deliveries = try deliveries()
            if done(deliveries) { return deliveries }
            guard ContinuousClock.now < deadline else {
                throw FixtureError("the receiver's record never reached the expected state in \(timeout); it has \(deliveries.count): \(deliveries.map { "\($0.id ?? "?") \($0.type ?? "?") \($0.status)" })")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Kills the receiver; idempotent.
    public func stop() {
        guard let process = process.withLock({ current in defer { current = nil }; return current }) else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
