import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Support/apns-standin/apns_standin.py` as a child process: Apple's APNs provider API stood
/// in for by real HTTP/2 over TLS on 127.0.0.1, requiring a client certificate from `caFile`,
/// recording every request as a JSON line in `recordFile` and answering each device token as
/// `rulesFile` says (see the script's docstring for both formats).
///
/// Launching blocks until the stand-in prints `PORT <n>` (a fraction of a second). Needs `python3`
/// with the `h2` package.
public final class APNsStandInProcess: Sendable {
    /// The script, found from this file's place in `Tests/PasswrightTesting/`.
    public static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/apns-standin/apns_standin.py")

    /// The bound port.
    public let port: Int
    private let process: Locked<ChildProcess?>

    /// Starts the stand-in on `port` (0: any free port; a port it had before, to restart it there).
    /// Its stderr goes to `<recordFile>.log`, quoted when it fails to start. With `answerEarly` it
    /// answers every request on its headers, before the body, then resets the stream with
    /// RST_STREAM(NO_ERROR) (RFC 9113 §8.1; the script's `--answer-early`).
    public init(
        caFile: URL, certificate: URL, key: URL, recordFile: URL, rulesFile: URL, port: Int = 0,
        maxConcurrentStreams: Int? = nil, delayMilliseconds: Int? = nil, answerEarly: Bool = false
    ) throws {
        var arguments = [
            "python3", Self.script.path, "--port", String(port),
            "--ca", caFile.path, "--cert", certificate.path, "--key", key.path,
            "--record", recordFile.path, "--rules", rulesFile.path,
        ]
        if let maxConcurrentStreams { arguments += ["--max-concurrent-streams", String(maxConcurrentStreams)] }
        if let delayMilliseconds { arguments += ["--delay-ms", String(delayMilliseconds)] }
        if answerEarly { arguments.append("--answer-early") }
        let (process, bound) = try PortAnnouncingProcess.start(
            arguments, errorFile: recordFile.appendingPathExtension("log"), hint: "is `pip install h2` done?")
        self.port = bound
        self.process = Locked(process)
    }

    /// The origin a client should push to.
    public var url: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// Kills the stand-in (its connections drop) and waits for it to exit; idempotent.
    ///
    /// SIGKILL: the stand-in keeps no state worth a graceful exit.
    public func stop() {
        guard let process = process.withLock({ current in defer { current = nil }; return current }) else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
