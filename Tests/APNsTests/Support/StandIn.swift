import Locking
import Foundation

/// How the stand-in should behave.
struct StandInOptions: Sendable {
    /// Device token → answer, as in the stand-in's rules file: a reason (`"BadDeviceToken"`) or an
    /// object (`["reason": "Unregistered", "timestamp": 1700000000123]`).
    var rules: [String: StandInRule] = [:]
    var maxConcurrentStreams = 100
    /// Hold every answer this long, so streams pile up on the connection.
    var delayMilliseconds = 0
    /// Require client certificates from the unrelated CA instead of ours.
    var requireOtherCA = false
}

/// One rule of the stand-in's rules file.
struct StandInRule: Sendable, Encodable {
    var reason: String
    var timestamp: Int64?
}

/// One request as the stand-in recorded it.
struct StandInRecord: Decodable, Sendable {
    var connection: Int
    var stream: Int
    var method: String
    var path: String
    var headers: [String: String]
    var body: String
    var clientSubject: String?
    var openStreams: Int
    var limitAcknowledged: Bool

    enum CodingKeys: String, CodingKey {
        case connection, stream, method, path, headers, body
        case clientSubject = "client_subject"
        case openStreams = "open_streams"
        case limitAcknowledged = "limit_acknowledged"
    }
}

/// A running `Tests/Support/apns-standin/apns_standin.py`: real HTTP/2 over TLS on 127.0.0.1.
final class StandIn: Sendable {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/apns-standin/apns_standin.py")

    private let pki: TestPKI
    private let options: StandInOptions
    private let recordFile: URL
    private let process: Locked<Process?>
    /// The bound port; kept across `restart()`.
    let port: Int

    init(pki: TestPKI, options: StandInOptions) throws {
        self.pki = pki
        self.options = options
        recordFile = pki.directory.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
        let (process, port) = try Self.launch(pki: pki, options: options, port: 0, recordFile: recordFile)
        self.process = Locked(process)
        self.port = port
    }

    /// The origin a client should push to.
    var url: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// Every request recorded so far, in arrival order.
    func records() throws -> [StandInRecord] {
        guard let data = FileManager.default.contents(atPath: recordFile.path) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try JSONDecoder().decode(StandInRecord.self, from: Data(line.utf8))
        }
    }

    /// Kills the server (its connections drop) and starts a new one on the same port.
    func restart() throws {
        stop()
        let (process, _) = try Self.launch(pki: pki, options: options, port: port, recordFile: recordFile)
        self.process.withLock { $0 = process }
    }

    /// Terminates the server and waits for it to exit; idempotent.
    func stop() {
        guard let process = process.withLock({ current in defer { current = nil }; return current }) else { return }
        process.terminate()
        // SIGKILL if SIGTERM has not ended it within 5 s, so a test can never hang here.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func launch(pki: TestPKI, options: StandInOptions, port: Int, recordFile: URL) throws -> (Process, Int) {
        let rulesFile = pki.directory.appendingPathComponent("rules-\(UUID().uuidString).json")
        try JSONEncoder().encode(options.rules).write(to: rulesFile)
        let errorFile = pki.directory.appendingPathComponent("standin-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw TestFailure("cannot create \(errorFile.path)")
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path,
            "--port", String(port),
            "--ca", (options.requireOtherCA ? pki.otherCAFile : pki.caFile).path,
            "--cert", pki.serverCertificate.path, "--key", pki.serverKey.path,
            "--record", recordFile.path, "--rules", rulesFile.path,
            "--max-concurrent-streams", String(options.maxConcurrentStreams),
            "--delay-ms", String(options.delayMilliseconds),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()

        // The stand-in prints `PORT <n>` once it listens; EOF first means it died.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("PORT "), let bound = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.waitUntilExit()
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw TestFailure("apns_standin.py did not start (is `pip install h2` done?): \(text) \(errors)")
        }
        return (process, bound)
    }
}
