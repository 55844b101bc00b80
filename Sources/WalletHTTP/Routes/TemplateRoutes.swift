import Foundation
import HTTPServer
import PassCompiler
import PassLint
import PassModel
import WalletCore

/// The admin routes of templates under `/api/v1/templates`: list, upload a version (a zip of the
/// folder), read one with its history, download a version, roll back, lint the current version.
struct TemplateRoutes {
    let templates: TemplateService
    let metrics: ServiceMetrics

    /// The largest template archive accepted: far above any real template (Wallet itself refuses
    /// passes much larger than a few megabytes), small enough to hold in memory.
    static let maxUploadSize = 20 << 20

    /// The template routes of the admin API, under `/api/v1`.
    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1/templates")
        group.add(Route(
            .get, "", operationID: "listTemplates", summary: "Templates and whether each can issue passes", auth: auth.requiring(.templatesRead),
            responses: [.json(.ok, "OK", schema: TemplateList.schemaName)]
        ) { _, _ in try await list() })
        group.add(Route(
            .put, "/:template", operationID: "uploadTemplate",
            summary: "Upload a template folder as a zip: a new version, made current and rolled out to every pass", auth: auth.requiring(.templatesWrite),
            maxBodySize: Self.maxUploadSize, start: .inPool, requestBody: RouteBody("application/zip", schema: "TemplateArchive", alternatives: ["application/x-zip-compressed"]),
            responses: [
                .json(.ok, "A new version, or none when the files equal the current version (changed: false)", schema: TemplateUpload.schemaName),
                .json(.created, "A new template, version 1", schema: TemplateUpload.schemaName),
                .problem(.badRequest, "Not a zip archive"),
                .problem(.unsupportedMediaType, "Not application/zip"),
                .problem(.unprocessableContent, "Lint errors (nothing stored) or an unsafe archive", schema: "InvalidTemplateProblem"),
            ]) { request, context in try await upload(request, context) })
        group.add(Route(
            .get, "/:template", operationID: "getTemplate", summary: "A template's current version, roll-out and history", auth: auth.requiring(.templatesRead),
            responses: [.json(.ok, "OK", schema: TemplateDetails.schemaName), .problem(.notFound, "No such template")]
        ) { _, context in try await details(context) })
        group.add(Route(
            .get, "/:template/versions/:version", operationID: "downloadTemplateVersion", summary: "One version's files as a zip", auth: auth.requiring(.templatesRead),
            responses: [
                RouteResponse(.ok, "The version's folder as a zip", body: RouteBody("application/zip", schema: "TemplateArchive")),
                .problem(.notFound, "No such template or version"),
            ]) { _, context in try await download(context) })
        group.add(Route(
            .post, "/:template/rollback", operationID: "rollbackTemplate",
            summary: "Make an older version current again, as a new version (the history only grows)", auth: auth.requiring(.templatesWrite), maxBodySize: 4096,
            start: .inPool,
            requestBody: .json(TemplateRollback.schemaName),
            responses: [
                .json(.ok, "The version made current", schema: TemplateUpload.schemaName), .problem(.notFound, "No such template or version"),
                .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Lint errors in that version today", schema: "InvalidTemplateProblem"),
            ]) { request, context in try await rollback(request, context) })
        group.add(Route(
            .post, "/:template/lint", operationID: "lintTemplate",
            summary: "Lint a template's current version: errors Wallet would refuse, design warnings, advice", auth: auth.requiring(.templatesRead), start: .inPool,
            responses: [
                .json(.ok, "Findings, most severe first (header X-Passwright-Lint-Errors counts the errors)", schema: "Findings"),
                .problem(.notFound, "No such template"),
            ]) { _, context in try await lint(context) })
        return group
    }

    private func list() async throws -> HTTPResponse {
        let statuses = try await templates.library.statuses()
        return try .json(TemplateList(templates: statuses.keys.sorted().map { name in
            let (version, entry) = statuses[name]!
            switch entry {
            case .ready(let compiler):
                return TemplateList.Entry(
                    name: name, status: .ready, version: version, passTypeIdentifier: compiler.template.passTypeIdentifier,
                    teamIdentifier: compiler.template.teamIdentifier, placeholders: compiler.template.placeholders)
            case .unavailable(let reason):
                return TemplateList.Entry(name: name, status: .unavailable, version: version, reason: reason)
            }
        }))
    }

    private func upload(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let origin = try context.identity(as: APICaller.self).origin
        try Self.checkName(name)
        let archive = try TemplateArchive.files(from: request.body)
        let publication = try await templates.publish(name: name, files: archive.files, skipped: archive.skipped, origin: origin)
        return try Self.response(publication, name: name)
    }

    private func details(_ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        guard let history = try await templates.history(name) else {
            throw HTTPError(.notFound, "no template '\(name)' is stored")
        }
        var details = TemplateDetails(
            name: name, currentVersion: history.current, passes: history.rollout.passes, passesBehind: history.rollout.behind, status: .ready,
            versions: history.versions)
        if case .unavailable(let reason) = try await templates.library.entry(name, version: history.current) {
            details.status = .unavailable
            details.reason = reason
        }
        return try .json(details)
    }

    private func download(_ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let version = try context.parameters.require("version", as: Int64.self)
        let files = try await templates.files(name, version: version)
        guard !files.isEmpty else { throw HTTPError(.notFound, "template '\(name)' has no version \(version)") }
        var response = HTTPResponse.bytes(try TemplateSourceFile.archive(files), contentType: "application/zip")
        response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(name))-v\(version).zip\""
        return response
    }

    private func rollback(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let body = try TemplateRollback(validating: request.jsonObject(), template: name)
        guard let publication = try await templates.rollback(name: name, to: body.version, origin: try context.identity(as: APICaller.self).origin) else {
            throw HTTPError(.notFound, "template '\(name)' has no version \(body.version)")
        }
        return try Self.response(publication, name: name)
    }

    private func lint(_ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        guard let findings = try await templates.currentFindings(name) else {
            throw HTTPError(.notFound, "template '\(name)' does not exist")
        }
        var response = HTTPResponse.json(LintReport.json(findings))
        response.headers["X-Passwright-Lint-Errors"] = String(findings.filter { $0.severity == .error }.count)
        return response
    }

    /// 201 for a new template, 200 for a new or unchanged version; 422 with every lint error.
    private static func response(_ publication: TemplateService.Publication, name: String) throws -> HTTPResponse {
        switch publication {
        case .refused(let findings):
            let errors = findings.filter(\.stopsBuild).map(TemplateFinding.init)
            let problem = HTTPResponse.problem(
                status: .unprocessableContent, title: "Invalid template",
                detail: "the template would give passes Wallet refuses (\(errors.count) error\(errors.count == 1 ? "" : "s")); nothing was stored",
                type: ProblemResponses.problemType("invalid-template"))
            return problem.with(extra: ["errors": try WireJSON.tree(errors)])
        case .published(let save, let findings, let skipped, let passes):
            var changed = true, created = false
            switch save {
            case .created: created = true
            case .newVersion: break
            case .unchanged: changed = false
            }
            let upload = TemplateUpload(
                name: name, version: save.current.version, digest: save.current.digest, changed: changed,
                passesAffected: changed ? passes : 0,
                warnings: findings.filter { !$0.stopsBuild }.map(TemplateFinding.init) + skipped.map { TemplateFinding(message: "left out: \($0)") })
            return try .json(upload, status: created ? .created : .ok)
        }
    }

    /// Template names become file and URL names: letters, digits, `-`, `_` and `.`, not starting with a dot.
    static func checkName(_ name: String) throws(HTTPError) {
        guard name.unicodeScalars.allSatisfy(SafeFileName.allows), !name.hasPrefix("."), (1...64).contains(name.count) else {
            throw HTTPError(.badRequest, "a template name is 1 to 64 letters, digits, '-', '_' or '.', not starting with '.'; '\(name)' is not")
        }
    }
}
