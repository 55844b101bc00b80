import Foundation
import HTTPServer
import PassCompiler
import WalletCore

/// Bulk jobs: an upload form (with the upload's progress), the recent jobs, and one job's progress,
/// failed lines, results and bundles. The upload goes through the same ``BulkJobService`` as the API.
extension ConsoleRoutes {
    /// Lines of a results download, and failed lines listed on a job's page.
    static let resultsPart = 10_000
    static let failuresShown = 200

    var jobRoutes: [Route] {
        [
            signed(.get, "/jobs", "Bulk jobs", needs: .scope(.passesRead)) { _, _, signed in try await jobList(signed) },
            signed(.post, "/jobs", "Upload records", needs: .scope(.passesIssue), maxBodySize: Self.maxUploadBody, start: .inPool) { _, _, signed in try await upload(signed) },
            signed(.get, "/jobs/:job", "A bulk job", needs: .scope(.passesRead)) { _, context, signed in try await jobPage(try context.parameters.require("job"), signed) },
            signed(.get, "/jobs/:job/results.csv", "A job's results", needs: .scope(.passesRead)) { request, context, _ in
                let job = try await bulkJob(try context.parameters.require("job"))
                let after = Int(request.query("after") ?? "0") ?? 0
                var response = HTTPResponse.bytes(
                    try await bulk.resultsPage(of: job, csv: true, after: after, limit: Self.resultsPart).body, contentType: "text/csv; charset=utf-8")
                response.headers["Content-Disposition"] = "attachment; filename=\"\(job.id)-results-\(after + 1).csv\""
                ConsolePage.secure(&response)
                return response
            },
            signed(.get, "/jobs/:job/bundle", "A job's bundle", needs: .scope(.passesRead), start: .inPool) { request, context, _ in
                let job = try await bulkJob(try context.parameters.require("job"))
                let part = Int(request.query("part") ?? "") ?? 0
                var response = HTTPResponse.bytes(try await bulkJobs.bundle(of: job, part: part), contentType: "application/vnd.apple.pkpasses")
                response.headers["Content-Disposition"] = "attachment; filename=\"\(job.id)-part-\(part).pkpasses\""
                ConsolePage.secure(&response)
                return response
            },
        ]
    }

    private func bulkJob(_ id: String) async throws -> BulkJobService.Job {
        guard let job = try await bulkJobs.job(id) else { throw HTTPError(.notFound, "no bulk job \(id)") }
        return job
    }

    private func jobList(_ signed: Signed, error: String? = nil, status: HTTPStatus = .ok) async throws -> HTTPResponse {
        let names = try await templates.library.statuses().keys.sorted()
        let jobs = try await bulkJobs.recentJobs(limit: 50).map(BulkJobDetails.init)
        let options = names.map { "<option value=\"\($0)\">\($0)</option>" as HTML }
        let rows = jobs.map { job -> HTML in
            """
            <tr><th scope="row"><a href="/console/jobs/\(job.id)">\(job.id)</a></th><td>\(job.template)</td><td>\(ConsolePage.time(job.createdAt))</td>
            <td>\(job.state)</td><td>\(ConsolePage.number(job.records))</td><td>\(ConsolePage.number(job.issued))</td><td>\(ConsolePage.number(job.failed))</td></tr>
            """
        }
        return ConsolePage.page("Bulk jobs", section: "/console/jobs", csrf: signed.csrf, role: signed.role, error: error, status: status, """
            <h2>Issue passes from a file</h2>
            \(signed.can(.passesIssue) ? .empty : HTML("<p class=\"hint\">Your role can follow jobs but not start one.</p>"))
            <form id="bulk-upload" method="post" action="/console/jobs" enctype="multipart/form-data"\(HTML(raw: signed.can(.passesIssue) ? "" : " hidden"))>
            \(ConsolePage.csrfField(signed.csrf))
            <label for="bulk-template">Template</label>
            <select name="template" id="bulk-template" required>\(options)</select>
            <label for="bulk-file">Records: CSV with a header row, or JSON Lines</label>
            <input type="file" name="records" id="bulk-file" accept=".csv,.jsonl,.ndjson" required aria-describedby="bulk-file-hint">
            <p class="hint" id="bulk-file-hint">A column <code>member.name</code> fills <code>{{member.name}}</code>; a record's <code>serialNumber</code> names its pass. Up to \(Self.maxUploadBody >> 20) MB here; larger files with <code>passwright issue</code> or the API.</p>
            <label for="bulk-validate">When records are checked</label>
            <select name="validate" id="bulk-validate">
            <option value="each" selected>Issue the valid records and list the others</option>
            <option value="first">Issue nothing unless every record is valid</option>
            </select>
            <progress id="bulk-upload-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>
            <button type="submit">Upload and issue</button>
            </form>
            <h2>Recent jobs</h2>
            \(rows.isEmpty ? "<p class=\"empty\">No bulk job yet.</p>" : """
                <div class="scroll"><table id="jobs"><caption>The newest bulk jobs</caption>
                <thead><tr><th scope="col">Job</th><th scope="col">Template</th><th scope="col">Created</th><th scope="col">State</th>
                <th scope="col">Records</th><th scope="col">Issued</th><th scope="col">Failed</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """ as HTML)
            """)
    }

    private func upload(_ signed: Signed) async throws -> HTTPResponse {
        guard let form = signed.form, let template = form["template"], let file = form.files["records"], !file.data.isEmpty else {
            return try await jobList(signed, error: "Choose a template and a file of records, then upload again.", status: .unprocessableContent)
        }
        let format: RecordReader.Format = RecordReader.Format(fileName: file.fileName)
            ?? (file.contentType?.contains("csv") == true ? .csv : .jsonLines)
        do {
            let validation = try BulkJobRoutes.validation(form["validate"])
            let spooled = try SpooledBody(file.data)
            let job = try await bulkJobs.create(
                template: template, format: format, validation: validation, origin: signed.origin, input: try spooled.open())
            return ConsolePage.redirect("/console/jobs/\(job.id)")
        } catch ServiceError.invalid(let message) {
            return try await jobList(signed, error: "\(file.fileName): \(message)", status: .unprocessableContent)
        } catch let error as ServiceError {
            return try await jobList(signed, error: "\(error)", status: .unprocessableContent)
        }
    }

    private func jobPage(_ id: String, _ signed: Signed) async throws -> HTTPResponse {
        let stored = try await bulkJob(id)
        let job = BulkJobDetails(stored)
        let done = job.issued + job.failed
        let percent = job.records == 0 ? 100 : done * 100 / job.records
        let failures = try await bulkJobs.results(of: stored, after: 0, limit: Self.failuresShown, failedOnly: true)
        let failedRows = failures.map { result -> HTML in
            let line = bulk.wire(result, passType: nil)
            return "<tr><th scope=\"row\">\(line.line)</th><td>\(line.serialNumber ?? "—")</td><td>\(line.errorSummary)</td></tr>"
        }
        let resultParts = max(1, (job.records + Self.resultsPart - 1) / Self.resultsPart)
        let resultLinks = (0..<resultParts).map { part -> HTML in
            "<li><a href=\"/console/jobs/\(job.id)/results.csv?after=\(part * Self.resultsPart)\" download>Lines from \(part * Self.resultsPart + 1) (CSV)</a></li>"
        }
        let bundleLinks = (1...max(1, min(job.bundleParts, 20))).map { part -> HTML in
            "<li><a href=\"/console/jobs/\(job.id)/bundle?part=\(part)\" download>Part \(part)</a></li>"
        }
        let finished = job.state == "completed" || job.state == "rejected"
        var response = ConsolePage.page("Job \(job.id)", section: "/console/jobs", csrf: signed.csrf, role: signed.role, """
            <dl class="facts" id="job">
            <dt>Template</dt><dd>\(job.template)</dd><dt>State</dt><dd>\(job.state)</dd>
            <dt>Records</dt><dd>\(ConsolePage.number(job.records))</dd><dt>Issued</dt><dd>\(ConsolePage.number(job.issued))</dd>
            <dt>Failed</dt><dd>\(ConsolePage.number(job.failed))</dd>
            <dt>Rate</dt><dd>\(job.ratePerSecond.map { "\(Int($0)) records per second" } ?? "—")</dd>
            <dt>Time left</dt><dd>\(job.etaSeconds.map { "\(Int($0)) s" } ?? "—")</dd>
            <dt>Created</dt><dd>\(ConsolePage.time(job.createdAt)) by \(job.actor)</dd><dt>Finished</dt><dd>\(ConsolePage.time(job.finishedAt))</dd>
            </dl>
            <label for="job-progress">\(percent) % settled</label>
            <progress id="job-progress" max="\(max(job.records, 1))" value="\(done)">\(percent) %</progress>
            \(finished ? .empty : "<p class=\"hint\">This page reloads every two seconds until the job is finished.</p>" as HTML)
            <h2>Failed lines</h2>
            \(failedRows.isEmpty ? "<p class=\"empty\">No line has failed.</p>" : """
                <div class="scroll"><table id="failed"><caption>\(job.failed > Self.failuresShown ? "The first \(Self.failuresShown) of \(job.failed) failed lines" : "Lines that failed, and why")</caption>
                <thead><tr><th scope="col">Line</th><th scope="col">Serial number</th><th scope="col">Errors</th></tr></thead><tbody>\(failedRows)</tbody></table></div>
                """ as HTML)
            <h2>Results</h2><ul class="links">\(resultLinks)</ul>
            <h2>Passes as .pkpasses bundles</h2>
            \(job.bundleParts == 0 ? "<p class=\"empty\">No pass issued yet.</p>" : """
                <ul class="links">\(bundleLinks)</ul>\(job.bundleParts > 20 ? "<p class=\"hint\">\(job.bundleParts) parts in all: GET /api/v1/jobs/\(job.id)/bundle?part=N.</p>" : "")
                """ as HTML)
            """)
        if !finished { response.headers["Refresh"] = "2" }
        return response
    }
}
