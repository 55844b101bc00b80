import Foundation
import PasswrightLogging
import PassCompiler
import PassLint
import PassModel
import WalletStore

/// The service layer for templates: publishing a version (an upload, an imported folder, a
/// rollback), reading them back, and starting the roll-out that carries a new version to every pass.
///
/// A version is linted before it is stored: one with errors would give passes Wallet refuses, so
/// it is refused whole and the current version stays.
public struct TemplateService: Sendable {
    let store: WalletStore
    public let library: TemplateLibrary
    public let rollouts: RolloutWorker

    /// What publishing came to.
    public enum Publication: Sendable {
        /// Stored (or found equal to the current version), with the lint findings and what was left out.
        case published(TemplateSave, findings: [Finding], skipped: [String], passes: Int)
        /// Refused: the findings include at least one error Wallet would refuse the passes for.
        case refused(findings: [Finding])
    }

    /// Lints `files` and stores them as the template's new current version unless they equal it;
    /// a new version starts its roll-out.
    public func publish(name: String, files given: [TemplateSourceFile], skipped givenSkipped: [String], origin: WriteOrigin, restores: Int64? = nil) async throws -> Publication {
        let files: [TemplateSourceFile], skipped: [String]
        do {
            let expanded = try TemplateMasters.expand(given)
            (files, skipped) = (expanded.files, givenSkipped + expanded.notes)
        } catch {
            return .refused(findings: [Finding(
                rule: "image.master", severity: .error, location: error.file, before: error.reason,
                after: "a PNG, JPEG, WebP or SVG master of a slot the style shows, named <slot>.master.<ext>",
                effect: "The slot's @1x, @2x and @3x images are made from it; until then nothing is stored.")])
        }
        let prepared = library.prepare(name: name, files: files, skipped: skipped, now: store.clock.now())
        guard prepared.template != nil, !prepared.findings.contains(where: \.stopsBuild) else {
            return .refused(findings: prepared.findings)
        }
        let findings = String(decoding: LintReport.json(prepared.findings), as: UTF8.self)
        let save = try await store.saveTemplateVersion(NewTemplateVersion(
            name: name, files: files.map { ($0.path, $0.bytes) }, digest: TemplateSourceFile.digest(of: files),
            origin: origin, findings: findings, restores: restores))
        if case .newVersion = save { rollouts.wake() }
        let passes = try await store.templateCounts()[name] ?? 0
        return .published(save, findings: prepared.findings, skipped: skipped, passes: passes)
    }

    /// Makes an older version current again, as a new version with its files (the history only grows).
    public func rollback(name: String, to version: Int64, origin: WriteOrigin) async throws -> Publication? {
        let files = try await store.templateFiles(name, version)
        guard !files.isEmpty else { return nil }
        return try await publish(
            name: name, files: files.map { TemplateSourceFile(path: $0.path, bytes: $0.bytes) }, skipped: [],
            origin: origin, restores: version)
    }

    /// Imports each subfolder of `directory` that has a `pass.json` as a new version when its files
    /// changed: how `serve --templates DIR` (at start and on `SIGHUP`) keeps folder deployments working.
    public func importFolders(in directory: URL, logger: Logger) async throws -> [String: Publication] {
        var results: [String: Publication] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names where FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(name)/pass.json").path) {
            let folder = directory.appendingPathComponent(name)
            let publication: Publication
            do {
                let files = try TemplateSourceFile.read(folder: folder)
                // A folder whose files were stored before (even if an upload or rollback replaced them
                // since) is not imported again: a restart must never undo what the API made current.
                let digest = TemplateSourceFile.digest(of: files.kept)
                if let stored = try await store.templateVersions(name).first(where: { $0.digest == digest }) {
                    library.clearRefusal(name)
                    results[name] = .published(.unchanged(stored), findings: [], skipped: files.skipped, passes: 0)
                    continue
                }
                publication = try await publish(name: name, files: files.kept, skipped: files.skipped, origin: .system("folder \(folder.path)"))
            } catch let error as PassCompilerError {
                publication = .refused(findings: Linter.findings(for: error))
            }
            switch publication {
            case .published(let save, _, _, let passes):
                library.clearRefusal(name)
                if case .unchanged = save { break }
                logger.info("template imported", ["template": name, "version": String(save.current.version), "passes": String(passes)])
            case .refused(let findings):
                // Each error with its effect: /readyz shows this reason, and the effect is what says
                // why ("permission denied: the server runs as user …", which identity file is missing).
                let errors = findings.filter(\.stopsBuild).map { "\($0.rule) at \($0.location): \($0.effect)" }
                library.recordRefusal(name, reason: "the folder was not imported: \(errors.joined(separator: "; "))")
                logger.warning("template folder not imported; the stored version (if any) stays current", [
                    "template": name, "errors": errors.joined(separator: "; "),
                ])
            }
            results[name] = publication
        }
        return results
    }
}
