import Foundation
import PassCompiler
import WalletCore

/// Uploads a template folder as `PUT /api/v1/templates/{name}` does it: the files kept by the same
/// rules the server applies to a folder (`TemplateSourceFile.read(folder:)`: root files and
/// `<language>.lproj/` files, junk such as `.DS_Store` left out and said so), zipped, sent as
/// `application/zip`. A folder with an `order.json` and no `pass.json` is an order template, sent
/// to `PUT /api/v1/order-templates/{name}`. Shared by `templates push` and `templates sync`.
struct TemplateUploader: Sendable {
    let api: AdminAPI

    /// What an upload came to.
    enum Outcome: Sendable {
        /// Stored as a new template (`created`), a new version, or found unchanged; `leftOut` are
        /// the folder's files that were not sent, with the reason.
        case stored(TemplateUpload, created: Bool, leftOut: [String])
        /// An order template stored as new (`created`), as a new version, or found unchanged.
        case storedOrderTemplate(OrderTemplateUpload, created: Bool, leftOut: [String])
        /// Refused (lint errors, an archive too large, a bad name): nothing was stored.
        case refused(status: Int, problem: Problem?, text: String)

        /// Whether the server stored (or kept) the template.
        var isStored: Bool {
            if case .refused = self { false } else { true }
        }

        /// One line for the template: its version, whether it changed, the passes affected.
        func summary(name: String) -> String {
            switch self {
            case .stored(let upload, let created, _):
                if created { return "\(name): version \(upload.version) (new template)" }
                if !upload.changed { return "\(name): version \(upload.version), unchanged (the files equal the current version)" }
                return "\(name): version \(upload.version), changed; \(upload.passesAffected) pass\(upload.passesAffected == 1 ? "" : "es") affected (rolling out)"
            case .storedOrderTemplate(let upload, let created, _):
                if created { return "\(name): order template version \(upload.version) (new order template)" }
                if !upload.changed { return "\(name): order template version \(upload.version), unchanged (the files equal the current version)" }
                return "\(name): order template version \(upload.version), changed; new orders are made from it, orders already made keep theirs"
            case .refused(let status, let problem, _):
                let errors = problem?.errors?.count ?? 0
                return "\(name): refused (\(status)\(errors > 0 ? ", \(errors) error\(errors == 1 ? "" : "s")" : "")); the stored version (if any) stays current"
            }
        }

        /// The details on standard error: warnings and left-out files, or every error of a refusal.
        func report(name: String, to console: Console) {
            switch self {
            case .stored(let upload, _, let leftOut):
                for file in leftOut { console.err("warning: \(name): left out \(file)") }
                for warning in upload.warnings { console.err("warning: \(name): \(warning.line)") }
            case .storedOrderTemplate(_, _, let leftOut):
                for file in leftOut { console.err("warning: \(name): left out \(file)") }
            case .refused(let status, let problem, let text):
                console.err("Error: template '\(name)' refused (\(status)): \(problem?.summary ?? text)")
                for error in problem?.errors ?? [] { console.err("  \(error.line)") }
            }
        }
    }

    /// Zips `folder` and uploads it as template `name`. A wrong token or a server that cannot be
    /// reached throws (no other template would fare better); a refusal of this template is an outcome.
    func upload(folder: URL, name: String) async throws -> Outcome {
        let files = try TemplateSourceFile.read(folder: folder)
        let archive = try TemplateSourceFile.archive(files.kept)
        let isOrderTemplate = Self.isOrderTemplate(files.kept)
        let collection = isOrderTemplate ? "order-templates" : "templates"
        let answer = try await api.send("PUT", "/api/v1/\(collection)/\(PathSegment.escaped(name))", body: archive, contentType: "application/zip")
        switch answer.status {
        case 200, 201:
            if isOrderTemplate {
                return .storedOrderTemplate(try answer.decode(OrderTemplateUpload.self, from: api.server), created: answer.status == 201, leftOut: files.skipped)
            }
            return .stored(try answer.decode(TemplateUpload.self, from: api.server), created: answer.status == 201, leftOut: files.skipped)
        case 401, 403:
            throw AdminAPIError.refused(server: api.server, status: answer.status, detail: answer.problem?.summary ?? answer.text)
        default:
            return .refused(status: answer.status, problem: answer.problem, text: answer.text)
        }
    }

    /// Whether a folder's files are an order template's: an `order.json` and no `pass.json`.
    static func isOrderTemplate(_ files: [TemplateSourceFile]) -> Bool {
        files.contains { $0.path == "order.json" } && !files.contains { $0.path == "pass.json" }
    }
}
