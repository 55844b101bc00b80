import Locking
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

    /// A record rendered, validated and encoded, not signed yet; or why it could not be.
    typealias Prepared = Result<PreparedPass, any Error>
    /// A record signed, not packaged or written yet; or why it could not be.
    typealias Signed = Result<(PreparedPass, SignedPass), any Error>

    static func prepare(_ record: RecordReader.Record, compiler: PassCompiler) -> Prepared {
        Result { try compiler.prepare(PassInput(record: try record.value.get(), recordName: record.name)) }
    }

    static func sign(_ prepared: Prepared, compiler: PassCompiler) -> Signed {
        Result {
            let pass = try prepared.get()
            return (pass, try compiler.sign(pass))
        }
    }

    /// Packages what `signed` holds and writes it (or hands it back for a bundle).
    static func write(_ signed: Signed, compiler: PassCompiler, writer: PassFileWriter) -> BatchOutcome {
        do {
            let (prepared, signature) = try signed.get()
            let compiled = try compiler.compiled(prepared, signed: signature)
            let archive = try writer.write(compiled, recordName: prepared.recordName)
            return .built(archive: archive, warnings: compiled.warnings.map(\.description))
        } catch {
            return .failed("\(error)")
        }
    }
}

/// Writes single passes as `<serialNumber>.pkpass` (atomically, never over an existing pass unless
/// asked), or hands the bytes back for bundling.
struct PassFileWriter: Sendable {
    /// The output folder's path, taken from its URL once rather than once per pass.
    let outDirPath: String
    let overwrite: Bool
    let bundles: Bool

    init(outDir: URL, overwrite: Bool, bundles: Bool) {
        outDirPath = outDir.path
        self.overwrite = overwrite
        self.bundles = bundles
    }

    func write(_ compiled: CompiledPass, recordName: String) throws -> Data? {
        guard !bundles else { return compiled.archive }
        let path = outDirPath + "/" + Self.fileName(for: compiled.serialNumber)
        do {
            try AtomicFile.write(compiled.archive, toPath: path, existing: overwrite ? .replace : .keep, durable: false)
        } catch {
            guard case .outputExists = error else { throw error }
            throw PassCompilerError.output(path: path, message: "\(recordName): a pass with serial number \(compiled.serialNumber) already exists (duplicate serialNumber?); pass --overwrite to replace it")
        }
        return nil
    }

    /// A file name for any serial number (or order identifier, with `extension` `order`): unsafe
    /// characters percent-encoded, so an identifier can never reach outside the output folder.
    static func fileName(for serialNumber: String, extension fileExtension: String = "pkpass") -> String {
        var name = ""
        for (index, byte) in serialNumber.utf8.enumerated() {
            let scalar = Unicode.Scalar(byte)
            let safe = byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-_@+=".unicodeScalars.contains(scalar) || (scalar == "." && index > 0))
            name += safe ? String(scalar) : String(format: "%%%02X", byte)
        }
        return name + "." + fileExtension
    }
}

/// What the batch workers share: the input, the counts, and the bundle being filled.
struct BatchState: ~Copyable {
    var reader: RecordReader
    var tally = BatchTally()
    private var bundle: [Data] = []

    init(reader: RecordReader) {
        self.reader = reader
    }

    /// Counts an outcome; when it completes a bundle of `bundleSize`, hands that bundle (and its
    /// number) back for the worker to write outside the lock.
    mutating func record(_ outcome: BatchOutcome, bundleSize: Int?) -> (passes: [Data], number: Int)? {
        switch outcome {
        case .built(let archive, let warnings):
            tally.built += 1
            tally.note(warnings)
            guard let bundleSize, let archive else { return nil }
            bundle.append(archive)
            return bundle.count == bundleSize ? takeBundle() : nil
        case .failed:
            tally.failed += 1
            return nil
        }
    }

    /// The passes gathered for a bundle not yet written, with the bundle's number.
    mutating func takeBundle() -> (passes: [Data], number: Int)? {
        guard !bundle.isEmpty else { return nil }
        tally.bundles += 1
        defer { bundle.removeAll(keepingCapacity: true) }
        return (bundle, tally.bundles)
    }
}

/// The batch state behind a lock, in a class so every worker task shares the one instance.
final class SharedBatchState: Sendable {
    let state: Locked<BatchState>

    init(_ state: consuming sending BatchState) {
        self.state = Locked(state)
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
