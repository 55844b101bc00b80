import Foundation
import PassCompiler
import PassModel

/// `passwright batch`: a CSV or JSON Lines file → one signed pass per record, on every core, in
/// constant memory. A bad record is reported with its line and the rest are still built.
struct BatchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "batch",
        abstract: "Build one signed pass per record of a CSV or JSON Lines file.",
        discussion: """
        CSV needs a header row; a column named member.name fills {{member.name}}; empty cells count as missing.
        JSON Lines holds one JSON object per line. Records are streamed, so memory stays flat.
        Each pass is written as <out-dir>/<serialNumber>.pkpass, or grouped into .pkpasses bundles with --bundle.
        Exit status: 0 when every record was built, 1 when any failed (each failure names its line).
        """,
        arguments: [CommandSpec.Argument(name: "TEMPLATE", help: "Template folder.")],
        options: [
            .value("input", "FILE", help: "Records: a .csv or .jsonl file, or - for standard input (then give --format)."),
            .value("format", "csv|jsonl", help: "Input format (default: from the file extension)."),
            .value("out-dir", "DIR", help: "Folder for the passes (created if missing)."),
            .value("jobs", short: "j", "N", help: "Passes built in parallel (default: the number of cores)."),
            .value("bundle", "N", help: "Group passes into .pkpasses bundles of N (2–10) instead of single files."),
            .flag("overwrite", help: "Replace passes already in the output folder (default: such a record fails)."),
            IdentityOptions.option,
            .value("web-service-url", "URL", help: "Web service base URL written into each pass (default: $PASSWRIGHT_WEB_SERVICE_URL or the template's)."),
        ])

    let template: String
    let input: String
    let format: RecordReader.Format
    let outDir: URL
    let jobs: Int
    let bundleSize: Int?
    let overwrite: Bool
    let identities: IdentityOptions
    let webServiceURL: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        template = arguments.positional(0)!
        guard let input = arguments.value("input") else { throw UsageError("missing --input FILE (.csv or .jsonl)") }
        self.input = input
        if let name = arguments.value("format") {
            guard let format = RecordReader.Format(rawValue: name) else { throw UsageError("--format is csv or jsonl, not '\(name)'") }
            self.format = format
        } else if let format = RecordReader.Format(fileName: input) {
            self.format = format
        } else {
            throw UsageError("cannot tell the format of '\(input)' from its extension; give --format csv or --format jsonl")
        }
        guard let outDir = arguments.value("out-dir") else { throw UsageError("missing --out-dir DIR") }
        self.outDir = URL(fileURLWithPath: outDir)
        jobs = try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        bundleSize = try arguments.integer("bundle", in: 2...PassBundle.maximumPasses)
        overwrite = arguments.flag("overwrite")
        identities = IdentityOptions(arguments: arguments, environment: environment)
        webServiceURL = arguments.value("web-service-url") ?? environment["PASSWRIGHT_WEB_SERVICE_URL"]
    }

    func run(console: Console) async throws -> ExitStatus {
        let loaded = try Template.load(from: URL(fileURLWithPath: template))
        let compiler = try identities.compiler(for: loaded, options: CompileOptions(webServiceURL: webServiceURL), console: console)
        let (handle, totalBytes) = try openInput()
        var reader = try RecordReader(handle: handle, format: format, file: input == "-" ? "standard input" : (input as NSString).lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        } catch {
            throw PassCompilerError.output(path: outDir.path, message: error.localizedDescription)
        }

        let progress = ProgressBar(console: console, title: "Building")
        var tally = BatchTally()
        var bundle: [Data] = []
        let writer = PassFileWriter(outDir: outDir, overwrite: overwrite, bundles: bundleSize != nil)
        await withTaskGroup(of: BatchOutcome.self) { group in
            var inFlight = 0
            func record(_ outcome: BatchOutcome) throws {
                switch outcome {
                case .built(let archive, let warnings):
                    tally.built += 1
                    tally.note(warnings)
                    if let bundleSize, let archive {
                        bundle.append(archive)
                        if bundle.count == bundleSize { try writeBundle(&bundle, tally: &tally) }
                    }
                case .failed(let message):
                    tally.failed += 1
                    progress.finish()
                    console.err("Error: \(message)")
                }
            }
            func take() async {
                guard let outcome = await group.next() else { return }
                inFlight -= 1
                do { try record(outcome) } catch { tally.failed += 1; console.err("Error: \(error)") }
            }
            while let next = reader.next() {
                if inFlight >= jobs { await take() }
                group.addTask { BatchOutcome.make(next, compiler: compiler, writer: writer) }
                inFlight += 1
                progress.update(
                    fraction: totalBytes.map { Double(reader.bytesConsumed) / Double(max($0, 1)) } ?? 0,
                    detail: "\(tally.built) built, \(tally.failed) failed")
            }
            while inFlight > 0 { await take() }
        }
        if !bundle.isEmpty { try writeBundle(&bundle, tally: &tally) }
        AtomicFile.flushToDisk()
        progress.finish()
        for (warning, count) in tally.warnings.sorted(by: { $0.key < $1.key }) {
            console.err("warning: \(warning)\(count > 1 ? " (\(count) passes)" : "")")
        }
        console.err(tally.summary(seconds: progress.elapsedSeconds, outDir: outDir.path))
        return tally.failed == 0 ? .success : .failure
    }

    private func openInput() throws -> (FileHandle, Int?) {
        if input == "-" { return (FileHandle.standardInput, nil) }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
            let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? nil
            return (handle, size)
        } catch {
            throw PassCompilerError.invalidRecord(record: input, message: "cannot be opened: \(error.localizedDescription)")
        }
    }

    private func writeBundle(_ bundle: inout [Data], tally: inout BatchTally) throws {
        tally.bundles += 1
        let name = String(format: "bundle-%05d.pkpasses", tally.bundles)
        try AtomicFile.write(try PassBundle.make(bundle), to: outDir.appendingPathComponent(name), durable: false)
        bundle.removeAll(keepingCapacity: true)
    }
}
