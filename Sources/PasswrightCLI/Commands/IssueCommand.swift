import Foundation
import PassCompiler
import WalletCore

/// `passwright issue --server URL --template NAME FILE`: bulk issuing on a running server. Uploads the
/// file as it is read (no copy in memory), follows the job with a progress bar, then writes its results.
struct IssueCommand: Subcommand {
    static let spec = CommandSpec(
        name: "issue",
        abstract: "Issue one pass per record of a CSV or JSON Lines file on a running server, as a bulk job.",
        discussion: """
        The records are what `passwright batch` takes: CSV with a header row (a column member.name fills {{member.name}})
        or JSON Lines; a record's serialNumber names its pass, otherwise the server chooses one.
        The job runs on the server and survives its restarts; interrupting this command does not stop it
        (follow it with GET /api/v1/jobs/ID). The admin token comes from PASSWRIGHT_ADMIN_TOKEN.
        Exit status: 0 when every record was issued, 1 when any failed or the job was rejected (each failure
        names its line), 64 for a usage error.
        """,
        arguments: [CommandSpec.Argument(name: "FILE", help: "Records: a .csv or .jsonl file.")],
        options: [
            .value("template", "NAME", help: "The template to issue from (required)."),
            .value("format", "csv|jsonl", help: "Input format (default: from the file extension)."),
            .value("validate", "each|first", help: "each: issue the valid records and report the others (default); first: issue nothing unless all are valid."),
            .value("results", "FILE", help: "Write every line's outcome here: .csv, else JSON Lines (serial number, download URL or errors)."),
            .flag("no-wait", help: "Print the job's id once the upload is in, without following it."),
            AdminAPI.serverOption,
        ])

    let api: AdminAPI
    let file: URL
    let template: String
    let format: RecordReader.Format
    let validation: String
    let results: URL?
    let wait: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        let path = arguments.positional(0)!
        file = URL(fileURLWithPath: path)
        guard let template = arguments.value("template") else { throw UsageError("missing --template NAME") }
        self.template = template
        format = try RecordReader.Format(arguments: arguments, fileName: path)
        validation = arguments.value("validate") ?? "each"
        guard ["each", "first"].contains(validation) else { throw UsageError("--validate is each or first, not '\(validation)'") }
        results = arguments.value("results").map { URL(fileURLWithPath: $0) }
        wait = !arguments.flag("no-wait")
    }

    func run(console: Console) async throws -> ExitStatus {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            console.err("Error: cannot read \(file.path)")
            return .failure
        }
        let contentType = format == .csv ? "text/csv" : "application/jsonl"
        // One key per run: a proxy or a client library that retries the upload makes one job.
        let answer = try await api.upload(
            "/api/v1/templates/\(PathSegment.escaped(template))/jobs?validate=\(validation)", file: file, contentType: contentType,
            headers: ["Idempotency-Key": UUID().uuidString])
        if answer.status == 422, let job = (try? JSONDecoder().decode(RejectedJob.self, from: answer.body))?.job {
            console.err("Error: \(answer.problem?.detail ?? "the job was rejected")")
            try await writeResults(of: job, console: console, showFailures: true)
            return .failure
        }
        guard answer.isSuccess else {
            throw AdminAPIError.refused(server: api.server, status: answer.status, detail: answer.problem?.summary ?? answer.text)
        }
        var job = try answer.decode(BulkJobDetails.self, from: api.server)
        console.err("Job \(job.id): \(job.records) records uploaded")
        guard wait else {
            console.out(job.id)
            return .success
        }
        let progress = ProgressBar(console: console, title: "Issuing")
        while !["completed", "rejected"].contains(job.state) {
            let done = job.issued + job.failed
            let eta = job.etaSeconds.map { ", \(Int($0)) s left" } ?? ""
            progress.update(
                fraction: Double(done) / Double(max(job.records, 1)),
                detail: "\(job.issued) issued, \(job.failed) failed\(job.ratePerSecond.map { ", \(Int($0))/s" } ?? "")\(eta)")
            try await Task.sleep(for: .milliseconds(500))
            job = try await api.expectSuccess("GET", "/api/v1/jobs/\(job.id)").decode(BulkJobDetails.self, from: api.server)
        }
        progress.finish()
        try await writeResults(of: job.id, console: console, showFailures: job.failed > 0)
        let rate = job.ratePerSecond.map { " (\(Int($0)) records/s)" } ?? ""
        console.err("Job \(job.id) \(job.state): \(job.issued) issued, \(job.failed) failed of \(job.records)\(rate); \(job.bundleParts) bundles at /api/v1/jobs/\(job.id)/bundle?part=N")
        return job.state == "completed" && job.failed == 0 ? .success : .failure
    }

    /// Pages through the results: each failure to standard error (the first 20), every line to `--results`.
    private func writeResults(of job: String, console: Console, showFailures: Bool) async throws {
        var output: FileHandle?
        if let results {
            guard FileManager.default.createFile(atPath: results.path, contents: nil) else {
                throw UsageError("cannot write --results \(results.path)")
            }
            output = try FileHandle(forWritingTo: results)
        }
        defer { try? output?.close() }
        let csv = results?.pathExtension.lowercased() == "csv"
        var after = 0
        var shown = 0
        while true {
            let page = try await api.expectSuccess("GET", "/api/v1/jobs/\(job)/results?format=jsonl&after=\(after)")
            let lines = page.body.split(separator: UInt8(ascii: "\n"))
            guard !lines.isEmpty else { break }
            var decoded: [BulkResultLine] = []
            for line in lines {
                let result = try WireJSON.decoder().decode(BulkResultLine.self, from: Data(line))
                decoded.append(result)
                if showFailures, result.state == "failed" {
                    if shown < 20 {
                        console.err("line \(result.line): \(result.errorSummary)")
                    }
                    shown += 1
                }
            }
            if let output {
                if csv {
                    let text = try await api.expectSuccess("GET", "/api/v1/jobs/\(job)/results?format=csv&after=\(after)").body
                    output.write(text)
                } else {
                    for line in lines { output.write(Data(line) + Data("\n".utf8)) }
                }
            }
            after = decoded.last?.line ?? after
            if lines.count < 10_000 { break }
        }
        if shown > 20 { console.err("… and \(shown - 20) more failed lines\(results.map { " (all in \($0.path))" } ?? "")") }
    }

    private struct RejectedJob: Decodable {
        let job: String
    }
}
