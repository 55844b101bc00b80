import Foundation
import PassCompiler
import PassLint
import WalletStore

/// Reading templates back for the admin API and the console, as WalletCore's own values: the
/// adapters never see the store's rows (style rule 14), so a change to how versions are stored
/// stops here.
extension TemplateService {
    /// One stored version of a template, as the API lists it.
    public typealias Version = TemplateDetails.Version

    /// How far a template's roll-out got: its passes, and those still on an older version.
    public struct Rollout: Sendable, Hashable {
        public let passes: Int
        public let behind: Int

        init(passes: Int, behind: Int) {
            (self.passes, self.behind) = (passes, behind)
        }

        init(_ rollout: TemplateRollout) {
            self.init(passes: rollout.passes, behind: rollout.behind)
        }
    }

    /// A template's versions (oldest first), which is current and its roll-out.
    public struct History: Sendable {
        public let current: Int64
        public let versions: [Version]
        public let rollout: Rollout
    }

    /// The history of template `name`, or `nil` when none is stored.
    public func history(_ name: String) async throws -> History? {
        let versions = try await store.templateVersions(name)
        guard let current = try await store.currentTemplateVersion(name), !versions.isEmpty else { return nil }
        return History(
            current: current,
            versions: versions.map(Version.init),
            rollout: try await store.templateRollouts(named: name).first.map(Rollout.init) ?? Rollout(passes: 0, behind: 0))
    }

    /// Every template's roll-out, by name.
    public func rollouts() async throws -> [String: Rollout] {
        Dictionary(try await store.templateRollouts().map { ($0.name, Rollout($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The files of version `version` of template `name`; empty when there is no such version.
    public func files(_ name: String, version: Int64) async throws -> [TemplateSourceFile] {
        try await store.templateFiles(name, version).map { TemplateSourceFile(path: $0.path, bytes: $0.bytes) }
    }

    /// What lint finds in template `name`'s current version today (dates move, so this is not
    /// what was found on upload), or `nil` when no such template is stored.
    public func currentFindings(_ name: String) async throws -> [Finding]? {
        guard let version = try await store.currentTemplateVersion(name) else { return nil }
        return prepare(name: name, files: try await files(name, version: version)).findings
    }

    /// Lints and builds `files` as template `name` would be, dated by the store's clock, without storing anything.
    public func prepare(name: String, files: [TemplateSourceFile], skipped: [String] = []) -> TemplateLibrary.Prepared {
        library.prepare(name: name, files: files, skipped: skipped, now: store.clock.now())
    }
}
