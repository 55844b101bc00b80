import Foundation
import PassCompiler
import PassLint
import Signing

/// The templates this service issues from, each loaded, prepared and paired with its signing identity
/// once at start-up. A template that cannot be used (bad files, no identity) is kept with the reason,
/// so `GET /api/v1/templates` can say what is wrong instead of the template silently missing.
public struct TemplateCatalog: Sendable {
    /// One template folder's state.
    public enum Entry: Sendable {
        /// Ready to issue passes.
        case ready(PassCompiler)
        /// Present but unusable, with the reason.
        case unavailable(reason: String)
    }

    /// Entries by template name (the folder name).
    public let entries: [String: Entry]
    /// Where the template folders are, for linting a template as it is on disk now.
    public let directory: URL?

    /// Loads every subfolder of `directory` that has a `pass.json`.
    public init(directory: URL, identities: IdentityDirectory, webServiceURL: String, now: Date = Date()) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).appendingPathComponent("pass.json").path) }
        var entries: [String: Entry] = [:]
        let intermediates = (try? identities.intermediates()) ?? []
        for name in names {
            do {
                let template = try Template.load(from: directory.appendingPathComponent(name))
                let identity = try identities.identity(forPassTypeIdentifier: template.passTypeIdentifier)
                let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: intermediates, at: now)
                let compiler = try PassCompiler(template: template, identity: identity, intermediate: intermediate, options: CompileOptions(webServiceURL: webServiceURL), now: now)
                // A template the linter finds errors in would give passes Wallet refuses: never issue from it.
                let errors = Linter(webServiceURL: webServiceURL, intermediates: intermediates).errors(in: template, identity: identity.certificate, now: now)
                if errors.isEmpty {
                    entries[name] = .ready(compiler)
                } else {
                    let rules = errors.map { "\($0.rule) at \($0.location)" }.joined(separator: "; ")
                    entries[name] = .unavailable(reason: "lint found \(errors.count) error\(errors.count == 1 ? "" : "s"): \(rules) (POST /api/v1/templates/\(name)/lint for details)")
                }
            } catch {
                entries[name] = .unavailable(reason: "\(error)")
            }
        }
        self.entries = entries
        self.directory = directory
    }

    /// Creates a catalog from prepared compilers (tests, embedding).
    public init(compilers: [PassCompiler]) {
        entries = Dictionary(uniqueKeysWithValues: compilers.map { ($0.template.name, .ready($0)) })
        directory = nil
    }

    /// The compiler of a ready template.
    public func compiler(for name: String) -> PassCompiler? {
        if case .ready(let compiler)? = entries[name] { return compiler }
        return nil
    }

    /// Pass type identifiers served, for routing checks.
    public var passTypeIdentifiers: Set<String> {
        Set(entries.values.compactMap { if case .ready(let compiler) = $0 { compiler.template.passTypeIdentifier } else { nil } })
    }
}
