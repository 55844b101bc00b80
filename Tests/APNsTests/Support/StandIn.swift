import Locking
import Foundation
import PasswrightTesting

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
    /// Answer every request on its headers, before its body, then RST_STREAM(NO_ERROR).
    var answerEarly = false
}

/// One rule of the stand-in's rules file.
struct StandInRule: Sendable, Encodable {
    var reason: String
    var timestamp: Int64?
}

/// One request as the stand-in recorded it: the test kit's ``APNsStandInRecord``.
typealias StandInRecord = APNsStandInRecord

/// A running APNs stand-in (the test kit's ``APNsStandInProcess``) with this suite's PKI and options.
final class StandIn: Sendable {
    private let pki: TestPKI
    private let options: StandInOptions
    private let recordFile: URL
    private let rulesFile: URL
    private let process: Locked<APNsStandInProcess?>
    /// The bound port; kept across `restart()`.
    let port: Int

    init(pki: TestPKI, options: StandInOptions) throws {
        self.pki = pki
        self.options = options
        recordFile = pki.directory.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
        rulesFile = pki.directory.appendingPathComponent("rules-\(UUID().uuidString).json")
        try JSONEncoder().encode(options.rules).write(to: rulesFile)
        let process = try Self.launch(pki: pki, options: options, port: 0, recordFile: recordFile, rulesFile: rulesFile)
        self.process = Locked(process)
        self.port = process.port
    }

    /// The origin a client should push to.
    var url: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// Every request recorded so far, in arrival order.
    func records() throws -> [StandInRecord] {
        try APNsStandInRecord.read(from: recordFile)
    }

    /// Kills the server (its connections drop) and starts a new one on the same port.
    func restart() throws {
        stop()
        let process = try Self.launch(pki: pki, options: options, port: port, recordFile: recordFile, rulesFile: rulesFile)
        self.process.withLock { $0 = process }
    }

    /// Kills the server and waits for it to exit; idempotent.
    func stop() {
        process.withLock { current in defer { current = nil }; return current }?.stop()
    }

    private static func launch(pki: TestPKI, options: StandInOptions, port: Int, recordFile: URL, rulesFile: URL) throws -> APNsStandInProcess {
        try APNsStandInProcess(
            caFile: options.requireOtherCA ? pki.otherCAFile : pki.caFile, certificate: pki.serverCertificate, key: pki.serverKey,
            recordFile: recordFile, rulesFile: rulesFile, port: port,
            maxConcurrentStreams: options.maxConcurrentStreams, delayMilliseconds: options.delayMilliseconds,
            answerEarly: options.answerEarly)
    }
}
