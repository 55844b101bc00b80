import Foundation
import Locking
import PassCompiler
import PassLint
import Signing
import WalletStore

/// The templates the service issues and renders from: versions in the store, each prepared once per
/// instance — files loaded, paired with its signing identity, linted — and kept, since a stored
/// version never changes. Every instance on one database reads the same versions, so all of them
/// agree on what a pass looks like; a pass renders from the version its update tag was made with.
public final class TemplateLibrary: Sendable {
    /// One template version's state on this instance.
    public enum Entry: Sendable {
        /// Ready to issue and render passes.
        case ready(PassCompiler)
        /// Stored but unusable here, with the reason (no identity for its pass type, lint errors).
        case unavailable(reason: String)

        /// The compiler of a ready version.
        public var compiler: PassCompiler? {
            if case .ready(let compiler) = self { return compiler }
            return nil
        }
    }

    /// A template's files prepared: the template if it loads, its entry, and every lint finding.
    public struct Prepared: Sendable {
        public let template: Template?
        let entry: Entry
        public let findings: [Finding]
    }

    private struct Key: Hashable {
        let name: String
        let version: Int64
    }

    let store: WalletStore
    let identities: IdentityDirectory
    let webServiceURL: String
    private let prepared = Locked<[Key: Entry]>([:])
    /// Template folders this instance refused to import, with the reason, so the template list says
    /// why a folder is not served instead of it silently missing.
    private let refusals = Locked<[String: String]>([:])

    /// A library over the store's templates, signing with `identities`.
    init(store: WalletStore, identities: IdentityDirectory, webServiceURL: String) {
        self.store = store
        self.identities = identities
        self.webServiceURL = webServiceURL
    }

    /// Loads, pairs with its identity and lints a template's files. A template the linter finds errors
    /// in would give passes Wallet refuses, so it is never ready.
    public func prepare(name: String, files: [TemplateSourceFile], skipped: [String] = [], now: Date) -> Prepared {
        let template: Template
        do {
            template = try Template.load(name: name, files: files, skipped: skipped)
        } catch {
            return Prepared(template: nil, entry: .unavailable(reason: "\(error)"), findings: Linter.findings(for: error))
        }
        let intermediates = (try? identities.intermediates()) ?? []
        let linter = Linter(webServiceURL: webServiceURL, intermediates: intermediates)
        let identity: SigningIdentity
        do {
            identity = try identities.identity(forPassTypeIdentifier: template.passTypeIdentifier)
        } catch {
            var findings = linter.lint(template: template, identity: nil, now: now)
            findings.append(Finding(
                rule: "identity-missing", severity: .error, location: "pass.json passTypeIdentifier",
                before: template.passTypeIdentifier, after: "an identity folder for \(template.passTypeIdentifier) on the server",
                effect: "No pass can be signed for this pass type: \(error)"))
            return Prepared(template: template, entry: .unavailable(reason: "\(error)"), findings: LintReport.sorted(findings))
        }
        let findings = linter.lint(template: template, identity: identity.certificate, now: now)
        // Errors Wallet accepts with a fallback are shown, not enforced: only what it refuses stops.
        let errors = findings.filter(\.stopsBuild)
        guard errors.isEmpty else {
            let rules = errors.map { "\($0.rule) at \($0.location)" }.joined(separator: "; ")
            return Prepared(template: template, entry: .unavailable(
                reason: "lint found \(errors.count) error\(errors.count == 1 ? "" : "s"): \(rules) (POST /api/v1/templates/\(name)/lint for details)"),
                findings: findings)
        }
        do {
            let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: intermediates, at: now)
            let compiler = try PassCompiler(
                template: template, identity: identity, intermediate: intermediate,
                options: CompileOptions(webServiceURL: webServiceURL), now: now)
            return Prepared(template: template, entry: .ready(compiler), findings: findings)
        } catch {
            return Prepared(template: template, entry: .unavailable(reason: "\(error)"), findings: findings)
        }
    }

    /// The entry of one stored version, prepared on first use.
    public func entry(_ name: String, version: Int64) async throws -> Entry {
        let key = Key(name: name, version: version)
        if let entry = prepared.withLock({ $0[key] }) { return entry }
        let files = try await store.templateFiles(name, version)
        guard !files.isEmpty else { throw WalletStoreError.templateNotFound(name) }
        let entry = prepare(name: name, files: files.map { TemplateSourceFile(path: $0.path, bytes: $0.bytes) }, now: store.clock.now()).entry
        prepared.withLock { $0[key] = entry }
        return entry
    }

    /// The current version of a template and its entry; `nil` when there is no such template.
    public func current(_ name: String) async throws -> (version: Int64, entry: Entry)? {
        guard let version = try await store.currentTemplateVersion(name) else { return nil }
        return (version, try await entry(name, version: version))
    }

    /// Every template's current version and entry, by name.
    public func currentEntries() async throws -> [(name: String, version: Int64, entry: Entry)] {
        var entries: [(name: String, version: Int64, entry: Entry)] = []
        for (name, version) in try await store.currentTemplateVersions().sorted(by: { $0.key < $1.key }) {
            entries.append((name, version, try await entry(name, version: version)))
        }
        return entries
    }

    /// Every template this instance knows of, by name: each stored template's current version, and
    /// the folders it refused to import that have no stored version.
    public func statuses() async throws -> [String: (version: Int64?, entry: Entry)] {
        var statuses: [String: (version: Int64?, entry: Entry)] = [:]
        for (name, reason) in refusals.withLock({ $0 }) { statuses[name] = (nil, .unavailable(reason: reason)) }
        for (name, version, entry) in try await currentEntries() { statuses[name] = (version, entry) }
        return statuses
    }

    public func recordRefusal(_ name: String, reason: String) {
        refusals.withLock { $0[name] = reason }
    }

    public func clearRefusal(_ name: String) {
        _ = refusals.withLock { $0.removeValue(forKey: name) }
    }

    /// The compiler a stored pass renders with: its own version's (the current one for a pass from
    /// before versions).
    public func compiler(for pass: StoredPass) async throws -> PassCompiler {
        try await compiler(pass.template, version: pass.templateVersion)
    }

    /// The compiler of one version of a template (0: the current version, for passes from before
    /// versions).
    func compiler(_ template: String, version: Int64) async throws -> PassCompiler {
        let entry: Entry?
        if version > 0 {
            entry = try await self.entry(template, version: version)
        } else {
            entry = try await current(template)?.entry
        }
        guard let compiler = entry?.compiler else { throw ServiceError.unavailableTemplate(template) }
        return compiler
    }

    /// The current version's compiler for issuing; unknown and unusable templates say which.
    func currentCompiler(_ name: String) async throws -> (version: Int64, compiler: PassCompiler) {
        guard let (version, entry) = try await current(name) else {
            throw ServiceError.unknownTemplate(name, available: try await store.currentTemplateVersions().keys.sorted())
        }
        guard let compiler = entry.compiler else { throw ServiceError.unavailableTemplate(name) }
        return (version, compiler)
    }
}
