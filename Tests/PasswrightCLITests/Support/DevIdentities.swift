import Foundation
import PasswrightTesting

/// One development identities folder per test process, made by the real `passwright certs dev`
/// for the pass type of every sample template (RSA key generation is slow, so every test shares
/// it), and removed when the process exits.
actor DevIdentities {
    /// The template most tests build; its identity is made first, creating the root CA.
    static let mainTemplate = "loyalty"
    /// `pass.dev.passwright.loyalty`.
    static let passTypeIdentifier = "pass.dev.passwright.loyalty"

    /// What making the folder produced, for the `certs dev` tests to check.
    struct Folder: Sendable {
        /// The identities folder (`--identities`).
        let root: URL
        /// `dev-ca/root.pem`, for `verify --ca` and `openssl -CAfile`.
        let rootCA: URL
        /// Each `certs dev` run, in order: pass type, team, result, and `root.pem` after it.
        let runs: [(passType: String, team: String, result: ProcessResult, rootAfter: Data)]

        /// `<root>/<passTypeIdentifier>/`.
        func identityFolder(_ passTypeIdentifier: String = DevIdentities.passTypeIdentifier) -> URL {
            root.appendingPathComponent(passTypeIdentifier, isDirectory: true)
        }
    }

    static let shared = DevIdentities()

    /// Removed at exit by a C `atexit` handler, which cannot capture, hence a static.
    private static let location = FileManager.default.temporaryDirectory
        .appendingPathComponent("passwright-cli-identities-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)

    private var making: Task<Folder, any Error>?

    /// The folder, made on first use.
    func folder() async throws -> Folder {
        if let making { return try await making.value }
        let task = Task { try await Self.make() }
        making = task
        return try await task.value
    }

    private static func make() async throws -> Folder {
        atexit { try? FileManager.default.removeItem(at: DevIdentities.location) }
        let root = location
        let rootCA = root.appendingPathComponent("dev-ca/root.pem")
        let names = [mainTemplate] + Samples.templateNames.filter { $0 != mainTemplate }
        var runs: [(passType: String, team: String, result: ProcessResult, rootAfter: Data)] = []
        for name in names {
            let (passType, team) = try Samples.identifiers(of: Samples.template(name))
            let result = try await CLI.run(["certs", "dev", "--out", root.path, "--pass-type-id", passType, "--team-id", team])
            guard result.status == 0 else { throw SampleError("passwright certs dev failed: \(result)") }
            runs.append((passType, team, result, try Data(contentsOf: rootCA)))
        }
        return Folder(root: root, rootCA: rootCA, runs: runs)
    }
}
