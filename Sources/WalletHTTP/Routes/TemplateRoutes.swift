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
    func group(adminToken: String) -> RouteGroup {
        var group = RouteGroup("/api/v1/templates", auth: ServiceAuth.admin(token: adminToken))
        group.add(Route(
            .get, "", operationID: "listTemplates", summary: "Templates and whether each can issue passes",
            responses: [.json(.ok, "OK", schema: "TemplateList")]
        ) { _, _ in try await list() })
        group.add(Route(
            .put, "/:template", operationID: "uploadTemplate",
            summary: "Upload a template folder as a zip: a new version, made current and rolled out to every pass",
            maxBodySize: Self.maxUploadSize, start: .inPool, requestBody: RouteBody("application/zip", schema: "TemplateArchive"),
            responses: [
                .json(.ok, "A new version, or none when the files equal the current version (changed: false)", schema: "TemplateUpload"),
                .json(.created, "A new template, version 1", schema: "TemplateUpload"),
                .problem(.badRequest, "Not a zip archive"),
                .problem(.unsupportedMediaType, "Not application/zip"),
                .problem(.unprocessableContent, "Lint errors (nothing stored) or an unsafe archive", schema: "InvalidTemplateProblem"),
            ]) { request, context in try await upload(request, context) })
        group.add(Route(
            .get, "/:template", operationID: "getTemplate", summary: "A template's current version, roll-out and history",
            responses: [.json(.ok, "OK", schema: "TemplateDetails"), .problem(.notFound, "No such template")]
        ) { _, context in try await details(context) })
        group.add(Route(
            .get, "/:template/versions/:version", operationID: "downloadTemplateVersion", summary: "One version's files as a zip",
            responses: [
                RouteResponse(.ok, "The version's folder as a zip", body: RouteBody("application/zip", schema: "TemplateArchive")),
                .problem(.notFound, "No such template or version"),
            ]) { _, context in try await download(context) })
        group.add(Route(
            .post, "/:template/rollback", operationID: "rollbackTemplate",
            summary: "Make an older version current again, as a new version (the history only grows)", maxBodySize: 4096,
            start: .inPool,
            requestBody: .json("TemplateRollback"),
            responses: [
                .json(.ok, "The version made current", schema: "TemplateUpload"), .problem(.notFound, "No such template or version"),
                .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Lint errors in that version today", schema: "InvalidTemplateProblem"),
            ]) { request, context in try await rollback(request, context) })
        group.add(Route(
            .post, "/:template/lint", operationID: "lintTemplate",
            summary: "Lint a template's current version: errors Wallet would refuse, design warnings, advice", start: .inPool,
            responses: [
                .json(.ok, "Findings, most severe first (header X-Passwright-Lint-Errors counts the errors)", schema: "Findings"),
                .problem(.notFound, "No such template"),
            ]) { _, context in try await lint(context) })
        return group
    }

    private func list() async throws -> HTTPResponse {
        let statuses = try await templates.library.statuses()
        let list: [JSONValue] = statuses.keys.sorted().map { name in
            let (version, entry) = statuses[name]!
            var object: JSONObject
            switch entry {
            case .ready(let compiler):
                object = [
                    "name": .string(name), "status": .string("ready"),
                    "passTypeIdentifier": .string(compiler.template.passTypeIdentifier),
                    "teamIdentifier": .string(compiler.template.teamIdentifier),
                    "placeholders": .array(compiler.template.placeholders.map { .string($0) }),
                ]
            case .unavailable(let reason):
                object = ["name": .string(name), "status": .string("unavailable"), "reason": .string(reason)]
            }
            if let version { object["version"] = .number(Double(version)) }
            return .object(object)
        }
        return .json(JSONValue.object(["templates": .array(list)]).serialized(sortedKeys: true))
    }

    private func upload(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        try Self.checkName(name)
        let type = request.headers["content-type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/zip" || type == "application/x-zip-compressed" else {
            throw HTTPError(.unsupportedMediaType, "send the template folder as a zip archive with Content-Type: application/zip")
        }
        let archive = try TemplateArchive.files(from: request.body)
        let publication = try await templates.publish(name: name, files: archive.files, skipped: archive.skipped, uploadedBy: "admin API")
        return Self.response(publication, name: name)
    }

    private func details(_ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        guard let history = try await templates.history(name) else {
            throw HTTPError(.notFound, "no template '\(name)' is stored")
        }
        var object: JSONObject = [
            "name": .string(name), "currentVersion": .number(Double(history.current)),
            "passes": .number(Double(history.rollout.passes)), "passesBehind": .number(Double(history.rollout.behind)),
            "versions": .array(history.versions.map(Self.json)),
        ]
        switch try await templates.library.entry(name, version: history.current) {
        case .ready: object["status"] = .string("ready")
        case .unavailable(let reason):
            object["status"] = .string("unavailable")
            object["reason"] = .string(reason)
        }
        return .json(JSONValue.object(object).serialized(sortedKeys: true))
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
        let body = try request.jsonObject()
        try body.requireOnly(["version"])
        guard case .number(let number)? = body["version"], number >= 1, number.rounded() == number, number < 1e15 else {
            throw HTTPError(.unprocessableContent, "version must be a whole number of one of the template's versions (GET /api/v1/templates/\(name))")
        }
        guard let publication = try await templates.rollback(name: name, to: Int64(number), by: "admin API (rollback)") else {
            throw HTTPError(.notFound, "template '\(name)' has no version \(Int64(number))")
        }
        return Self.response(publication, name: name)
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
    private static func response(_ publication: TemplateService.Publication, name: String) -> HTTPResponse {
        switch publication {
        case .refused(let findings):
            let errors: [JSONValue] = findings.filter(\.stopsBuild).map(finding)
            let problem = HTTPResponse.problem(
                status: .unprocessableContent, title: "Invalid template",
                detail: "the template would give passes Wallet refuses (\(errors.count) error\(errors.count == 1 ? "" : "s")); nothing was stored",
                type: ProblemResponses.problemType("invalid-template"))
            return problem.with(extra: ["errors": .array(errors)])
        case .published(let save, let findings, let skipped, let passes):
            var changed = true, created = false
            switch save {
            case .created: created = true
            case .newVersion: break
            case .unchanged: changed = false
            }
            let body: JSONValue = .object([
                "name": .string(name), "version": .number(Double(save.current.version)), "digest": .string(save.current.digest),
                "changed": .bool(changed), "passesAffected": .number(Double(changed ? passes : 0)),
                "warnings": .array(findings.filter { !$0.stopsBuild }.map(finding) + skipped.map { .object(["message": .string("left out: \($0)")]) }),
            ])
            return .json(body.serialized(sortedKeys: true), status: created ? .created : .ok)
        }
    }

    /// A finding with its file and JSON path apart (`pass.json foregroundColor`), for clients to point at.
    private static func finding(_ finding: Finding) -> JSONValue {
        let parts = finding.location.split(separator: " ", maxSplits: 1).map(String.init)
        return .object([
            "rule": .string(finding.rule), "severity": .string(finding.severity.rawValue), "location": .string(finding.location),
            "file": .string(parts.first ?? ""), "path": .string(parts.count > 1 ? parts[1] : ""),
            "message": .string(finding.effect), "now": .string(finding.before), "fix": .string(finding.after),
        ])
    }

    private static func json(_ version: TemplateService.Version) -> JSONValue {
        var object: JSONObject = [
            "version": .number(Double(version.version)), "digest": .string(version.digest),
            "uploadedBy": .string(version.uploadedBy), "uploadedAt": .string(version.uploadedAt.formatted(.iso8601)),
        ]
        if let restores = version.restores { object["restores"] = .number(Double(restores)) }
        return .object(object)
    }

    /// Template names become file and URL names: letters, digits, `-`, `_` and `.`, not starting with a dot.
    static func checkName(_ name: String) throws(HTTPError) {
        guard name.unicodeScalars.allSatisfy(SafeFileName.allows), !name.hasPrefix("."), (1...64).contains(name.count) else {
            throw HTTPError(.badRequest, "a template name is 1 to 64 letters, digits, '-', '_' or '.', not starting with '.'; '\(name)' is not")
        }
    }
}
