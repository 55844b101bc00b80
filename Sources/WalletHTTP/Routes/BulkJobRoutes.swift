import Foundation
import HTTPServer
import PassCompiler
import PassModel
import WalletCore

/// Bulk issuing over the API: `POST /api/v1/templates/{template}/jobs` takes CSV or JSON Lines as a
/// streamed body (spooled to disk, read in constant memory) and answers `202` with a durable job;
/// `GET /api/v1/jobs/{id}` follows it, `…/results` pages its outcome line by line, `…/bundle?part=N`
/// hands out its passes as `.pkpasses` bundles.
struct BulkJobRoutes {
    let jobs: BulkJobService
    let links: DownloadLinks
    let publicURL: String
    let idempotent: Idempotent
    /// The largest upload: about ten million records of a loyalty card.
    static let maximumUpload = 1 << 30
    /// Result lines per page.
    static let maximumResultPage = 10_000

    static let recordsBody = RouteBody(
        "text/csv", schema: "BulkRecords", alternatives: ["application/jsonl", "application/x-ndjson", "application/jsonlines"], spooled: true)

    func group(auth: APIAuth) -> RouteGroup {
        let routes = self
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .post, "/templates/:template/jobs", operationID: "createBulkJob",
            summary: "Issue one pass per record of a CSV or JSON Lines upload, as a durable job (answers 202 and where to follow it)", auth: auth.requiring(.passesIssue),
            maxBodySize: Self.maximumUpload, start: .inPool,
            parameters: [RouteParameter("validate", in: .query, schema: "BulkValidation"), Idempotent.parameter], requestBody: Self.recordsBody,
            responses: [
                .json(.accepted, "The job; follow it at Location", schema: BulkJobDetails.schemaName),
                .problem(.conflict, "A request with the same Idempotency-Key is still being answered"),
                .problem(.unprocessableContent, "Unknown template, a CSV without a header row, or (validate=first) unreadable lines: the job is rejected"),
                .problem(.insufficientStorage, "The server's disk cannot hold the upload"),
            ]
        ) { request, context in try await idempotent.run(request, context) { try await routes.create(request, context) } })
        group.add(Route(
            .get, "/jobs", operationID: "listBulkJobs", summary: "The newest bulk jobs first", auth: auth.requiring(.passesRead),
            responses: [.json(.ok, "Jobs", schema: BulkJobList.schemaName)]
        ) { _, _ in try .json(BulkJobList(jobs: try await routes.jobs.recentJobs().map(BulkJobDetails.init))) })
        group.add(Route(
            .get, "/jobs/:job", operationID: "getBulkJob", summary: "A bulk job's progress: done, failed, rate and time left", auth: auth.requiring(.passesRead),
            responses: [.json(.ok, "The job", schema: BulkJobDetails.schemaName), .problem(.notFound, "No such job")]
        ) { _, context in try .json(BulkJobDetails(try await routes.job(context))) })
        group.add(Route(
            .get, "/jobs/:job/results", operationID: "getBulkJobResults",
            summary: "A job's outcome per line (serial number, download link, or every error by JSON path), as JSON Lines or CSV, a page at a time", auth: auth.requiring(.passesRead),
            parameters: [
                RouteParameter("format", in: .query, schema: "BulkResultFormat"), RouteParameter("after", in: .query, schema: "BulkLine"),
                RouteParameter("limit", in: .query, schema: "BulkResultLimit"),
            ],
            responses: [
                RouteResponse(.ok, "Result lines after `after`; a Link header names the next page", bodies: [
                    RouteBody("application/jsonl", schema: BulkResultLine.schemaName), RouteBody("text/csv", schema: "BulkResultsCSV"),
                ]),
                .problem(.notFound, "No such job"), .problem(.unprocessableContent, "A bad format, after or limit"),
            ]
        ) { request, context in try await routes.results(request, context) })
        group.add(Route(
            .get, "/jobs/:job/bundle", operationID: "getBulkJobBundle",
            summary: "Part N of a job's issued passes as a .pkpasses bundle (up to 10, in the order they were issued; each result line names its part)", auth: auth.requiring(.passesRead), start: .inPool,
            parameters: [RouteParameter("part", in: .query, required: true, schema: "BulkLine")],
            responses: [
                RouteResponse(.ok, "The bundle", body: RouteBody("application/vnd.apple.pkpasses", schema: "PassArchive")),
                .problem(.notFound, "No such job"), .problem(.unprocessableContent, "No such part"),
            ]
        ) { request, context in
            let job = try await routes.job(context)
            guard let part = request.query("part").flatMap(Int.init) else { throw ServiceError.invalid("part must be a whole number from 1") }
            var response = HTTPResponse.bytes(try await routes.jobs.bundle(of: job, part: part), contentType: "application/vnd.apple.pkpasses")
            response.headers["Content-Disposition"] = "attachment; filename=\"\(job.id)-part-\(part).pkpasses\""
            return response
        })
        return group
    }

    /// Reads the upload into a job (the format from `Content-Type`), answered `202` with its place.
    func create(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let origin = try context.identity(as: APICaller.self).origin
        let template = try context.parameters.require("template")
        let format: RecordReader.Format = request.contentType?.accepts(MediaType("text/csv")!) == true ? .csv : .jsonLines
        let validation = try Self.validation(request.query("validate"))
        guard let upload = request.spooledBody, upload.count > 0 else {
            throw ServiceError.invalid("the body holds no records: send CSV (with a header row) or JSON Lines")
        }
        let job = try await jobs.create(template: template, format: format, validation: validation, origin: origin, input: try upload.open())
        if job.state == .rejected {
            return HTTPResponse.problem(
                status: .unprocessableContent, title: "Job rejected",
                detail: "\(job.failed) of \(job.records) lines cannot be read, and validate=first issues nothing unless every record is valid; see the results",
                type: ProblemResponses.problemType("bulk-job-rejected")
            ).with(extra: ["job": .string(job.id), "results": .string("/api/v1/jobs/\(job.id)/results")])
        }
        var response = try HTTPResponse.json(BulkJobDetails(job), status: .accepted)
        response.headers["Location"] = "/api/v1/jobs/\(job.id)"
        return response
    }

    static func validation(_ text: String?) throws -> BulkJobService.Validation {
        guard let text else { return .each }
        guard let validation = BulkJobService.Validation(rawValue: text) else {
            throw ServiceError.invalid("validate must be each (issue the valid records) or first (all or nothing), not '\(text)'")
        }
        return validation
    }

    private func job(_ context: RequestContext) async throws -> BulkJobService.Job {
        let id = try context.parameters.require("job")
        guard let job = try await jobs.job(id) else { throw HTTPError(.notFound, "no bulk job \(id); finished jobs are kept as long as the event log") }
        return job
    }

    private func results(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let job = try await job(context)
        let format = request.query("format") ?? "jsonl"
        guard format == "jsonl" || format == "csv" else { throw ServiceError.invalid("format must be jsonl or csv, not '\(format)'") }
        guard let after = Int(request.query("after") ?? "0"), after >= 0 else { throw ServiceError.invalid("after must be a line number (0 for the start)") }
        guard let limit = Int(request.query("limit") ?? String(Self.maximumResultPage)), (1...Self.maximumResultPage).contains(limit) else {
            throw ServiceError.invalid("limit must be a whole number from 1 to \(Self.maximumResultPage)")
        }
        let page = try await resultsPage(of: job, csv: format == "csv", after: after, limit: limit)
        var response = HTTPResponse.bytes(page.body, contentType: format == "csv" ? "text/csv; charset=utf-8" : "application/jsonl")
        if let last = page.next {
            response.headers["Link"] = "</api/v1/jobs/\(job.id)/results?format=\(format)&after=\(last)&limit=\(limit)>; rel=\"next\""
        }
        return response
    }

    /// Up to `limit` result lines after line `after`, as CSV (with its header on the first page) or
    /// JSON Lines, and the line to continue after when the page is full.
    func resultsPage(of job: BulkJobService.Job, csv: Bool, after: Int, limit: Int) async throws -> (body: Data, next: Int?) {
        let passType = try await jobs.passTypeIdentifier(of: job)
        let lines = try await jobs.results(of: job, after: after, limit: limit).map { wire($0, passType: passType) }
        let body = csv ? Self.csv(lines, header: after == 0) : Self.jsonLines(lines)
        return (body, lines.count == limit ? lines.last?.line : nil)
    }

    /// A result as the API shows it, with a fresh signed download link for an issued pass.
    func wire(_ result: BulkJobService.ResultLine, passType: String?) -> BulkResultLine {
        let errors = result.errors.flatMap { text -> [JSONValue]? in
            if case .array(let entries) = try? JSONValue.parse(Data(text.utf8)) { return entries }
            return nil
        }
        var download: String?
        if result.state == "issued", let passType {
            download = publicURL + links.path(passTypeIdentifier: passType, serialNumber: result.serialNumber, now: Date())
        }
        return BulkResultLine(
            line: result.line, serialNumber: result.serialNumber.isEmpty ? nil : result.serialNumber, state: result.state,
            downloadURL: download, bundlePart: result.issuedOrdinal.map(BulkJobService.bundlePart(ofOrdinal:)), errors: errors)
    }

    static func jsonLines(_ lines: [BulkResultLine]) -> Data {
        let encoder = WireJSON.encoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = Data()
        for line in lines {
            body.append((try? encoder.encode(line)) ?? Data("{}".utf8))
            body.append(UInt8(ascii: "\n"))
        }
        return body
    }

    /// `line,serialNumber,state,downloadURL,bundlePart,errors`, the errors as `path: message` joined by `; `.
    static func csv(_ lines: [BulkResultLine], header: Bool) -> Data {
        var text = header ? "line,serialNumber,state,downloadURL,bundlePart,errors\r\n" : ""
        for line in lines {
            text += [String(line.line), line.serialNumber ?? "", line.state, line.downloadURL ?? "", line.bundlePart.map(String.init) ?? "", line.errorSummary].map(csvField).joined(separator: ",") + "\r\n"
        }
        return Data(text.utf8)
    }

    /// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180); a leading `=`, `+`,
    /// `-` or `@` gets a `'` so a spreadsheet does not run it as a formula.
    private static func csvField(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
