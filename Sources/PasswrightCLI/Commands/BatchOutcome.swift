import Foundation
import PassCompiler
import PassModel
import Synchronization

/// What building one record came to; made in a child task, tallied by the batch's main task.
enum BatchOutcome: Sendable {
    /// Built; the archive is returned only when it still has to go into a bundle.
    case built(archive: Data?, warnings: [String])
    /// Not built; the message names the record's line.
    case failed(String)

    static func make(_ record: RecordReader.Record, compiler: PassCompiler, writer: PassFileWriter) -> BatchOutcome {
        do {
            let value = try record.value.get()
            let compiled = try compiler.compile(PassInput(record: value, recordName: record.name))
            let archive = try writer.write(compiled, recordName: record.name)
            return .built(archive: archive, warnings: compiled.warnings.map(\.description))
        } catch {
            return .failed("\(error)")
        }
    }
}

/// Writes single passes as `<serialNumber>.pkpass` (atomically, never over an existing pass unless
/// asked), or hands the bytes back for bundling.
struct PassFileWriter: Sendable {
    let outDir: URL
    let overwrite: Bool
    let bundles: Bool
    /// Records are built in parallel, so "the file exists" alone cannot stop two records of one
    /// serial number from both being written, the second silently replacing the first.
    let claimedNames = ClaimedNames()

    func write(_ compiled: CompiledPass, recordName: String) throws -> Data? {
        guard !bundles else { return compiled.archive }
        let name = Self.fileName(for: compiled.serialNumber)
        let url = outDir.appendingPathComponent(name)
        if !overwrite, !claimedNames.claim(name) || FileManager.default.fileExists(atPath: url.path) {
            throw PassCompilerError.output(path: url.path, message: "\(recordName): a pass with serial number \(compiled.serialNumber) already exists (duplicate serialNumber?); pass --overwrite to replace it")
        }
        try AtomicFile.write(compiled.archive, to: url)
        return nil
    }

    /// A file name for any serial number: unsafe characters percent-encoded, so a serial can never
    /// reach outside the output folder.
    static func fileName(for serialNumber: String) -> String {
        var name = ""
        for (index, byte) in serialNumber.utf8.enumerated() {
            let scalar = Unicode.Scalar(byte)
            let safe = byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-_@+=".unicodeScalars.contains(scalar) || (scalar == "." && index > 0))
            name += safe ? String(scalar) : String(format: "%%%02X", byte)
        }
        return name + ".pkpass"
    }
}

/// The pass file names written so far in one batch run, shared by its parallel builds.
final class ClaimedNames: Sendable {
    private let names = Mutex<Set<String>>([])

    /// Whether `name` was not yet claimed; claims it.
    func claim(_ name: String) -> Bool {
        names.withLock { $0.insert(name).inserted }
    }
}

/// Counts of a batch run and its warnings, folded so 10,000 identical warnings print once.
struct BatchTally {
    var built = 0
    var failed = 0
    var bundles = 0
    var warnings: [String: Int] = [:]

    mutating func note(_ list: [String]) {
        for warning in list { warnings[warning, default: 0] += 1 }
    }

    func summary(seconds: Double, outDir: String) -> String {
        let rate = seconds > 0 ? Int(Double(built) / seconds) : built
        var text = "Built \(built) pass\(built == 1 ? "" : "es") in \(String(format: "%.2f", seconds)) s (\(rate)/s) into \(outDir)"
        if bundles > 0 { text += " as \(bundles) bundle\(bundles == 1 ? "" : "s")" }
        text += failed == 0 ? "; no failures." : "; \(failed) record\(failed == 1 ? "" : "s") failed (see above)."
        return text
    }
}
