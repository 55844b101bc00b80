import Foundation
import PassCompiler
import PassModel
import Synchronization

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
        An order folder (order.json, no pass.json) takes JSON Lines: each record is a JSON Merge Patch over its
        order.json (line items, fulfilments, customer…; orderIdentifier names the order, else a UUID), signed
        with its Order Type ID identity into <out-dir>/<orderIdentifier>.order.
        Exit status: 0 when every record was built, 1 when any failed (each failure names its line).
        """,
        arguments: [CommandSpec.Argument(name: "TEMPLATE", help: "Template folder, or an order folder.")],
        options: [
            .value("input", "FILE", help: "Records: a .csv or .jsonl file, or - for standard input (then give --format)."),
            .value("format", "csv|jsonl", help: "Input format (default: from the file extension)."),
            .value("out-dir", "DIR", help: "Folder for the passes (created if missing)."),
            .value("jobs", short: "j", "N", help: "Passes signed in parallel (default: the number of cores); each job packages and writes one pass while it signs the next, and prepares the one after when cores are spare."),
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
        format = try RecordReader.Format(arguments: arguments, fileName: input)
        guard let outDir = arguments.value("out-dir") else { throw UsageError("missing --out-dir DIR") }
        self.outDir = URL(fileURLWithPath: outDir)
        jobs = try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        bundleSize = try arguments.integer("bundle", in: 2...PassBundle.maximumPasses)
        overwrite = arguments.flag("overwrite")
        identities = IdentityOptions(arguments: arguments, environment: environment)
        webServiceURL = arguments.value("web-service-url") ?? environment["PASSWRIGHT_WEB_SERVICE_URL"]
    }

    func run(console: Console) async throws -> ExitStatus {
        if BuildSource.of(URL(fileURLWithPath: template)) == .orderFolder {
            guard format == .jsonLines, bundleSize == nil else {
                throw UsageError("an order folder takes JSON Lines records (merge patches of order.json) and no --bundle")
            }
            let (handle, totalBytes) = try openInput()
            var reader = try RecordReader(handle: handle, format: format, file: input == "-" ? "standard input" : (input as NSString).lastPathComponent)
            return try OrderBatch(folder: template, outDir: outDir, overwrite: overwrite, identities: identities)
                .run(reader: &reader, totalBytes: totalBytes, console: console)
        }
        let loaded = try Template.load(from: URL(fileURLWithPath: template))
        let compiler = try identities.compiler(for: loaded, options: CompileOptions(webServiceURL: webServiceURL), console: console)
        let (handle, totalBytes) = try openInput()
        let reader = try RecordReader(handle: handle, format: format, file: input == "-" ? "standard input" : (input as NSString).lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        } catch {
            throw PassCompilerError.output(path: outDir.path, message: error.localizedDescription)
        }

        let progress = ProgressBar(console: console, title: "Building")
        let writer = PassFileWriter(outDir: outDir, overwrite: overwrite, bundles: bundleSize != nil)
        let shared = SharedBatchState(BatchState(reader: reader))
        // `jobs` workers each take the next record and build it: exactly `jobs` passes are being
        // signed at any time and no task sits between the reader and the workers. Each worker
        // writes a pass while it signs the next, and prepares the one after when cores are spare
        // (``BatchJob``).
        let count = { @Sendable (outcome: BatchOutcome, consumed: Int) in
            let (full, counts) = shared.state.withLock { state in (state.record(outcome, bundleSize: bundleSize), (state.tally.built, state.tally.failed)) }
            if case .failed(let message) = outcome {
                progress.finish()
                console.err("Error: \(message)")
            }
            if let full {
                do {
                    try writeBundle(full.passes, number: full.number)
                } catch {
                    shared.state.withLock { $0.tally.failed += full.passes.count }
                    console.err("Error: \(error)")
                }
            }
            progress.update(
                fraction: totalBytes.map { Double(consumed) / Double(max($0, 1)) } ?? 0,
                detail: "\(counts.0) built, \(counts.1) failed")
        }
        let job = BatchJob(
            compiler: compiler, writer: writer, preparesAhead: jobs < ProcessInfo.processInfo.activeProcessorCount,
            next: { shared.state.withLock { state in state.reader.next().map { ($0, state.reader.bytesConsumed) } } },
            tally: count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<jobs {
                group.addTask { await job.run() }
            }
        }
        var tally = shared.state.withLock { $0.tally }
        if let rest = shared.state.withLock({ $0.takeBundle() }) {
            do {
                try writeBundle(rest.passes, number: rest.number)
            } catch {
                tally.failed += rest.passes.count
                console.err("Error: \(error)")
            }
            tally.bundles = rest.number
        }
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

    private func writeBundle(_ passes: [Data], number: Int) throws {
        let name = String(format: "bundle-%05d.pkpasses", number)
        try AtomicFile.write(try PassBundle.make(passes), to: outDir.appendingPathComponent(name), durable: false)
    }
}

extension RecordReader.Format {
    /// `--format`, or else the format the file's extension names; a usage error when neither says.
    init(arguments: ParsedArguments, fileName: String) throws {
        if let name = arguments.value("format") {
            guard let format = Self(rawValue: name) else { throw UsageError("--format is csv or jsonl, not '\(name)'") }
            self = format
        } else if let format = Self(fileName: fileName) {
            self = format
        } else {
            throw UsageError("cannot tell the format of '\(fileName)' from its extension; give --format csv or --format jsonl")
        }
    }
}
