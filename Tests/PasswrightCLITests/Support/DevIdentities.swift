import Foundation

/// One development identities folder per test process, made by the real `passwright certs dev`
/// (RSA key generation is slow, so every test shares it) and removed when the process exits.
actor DevIdentities {
    /// The pass type most tests sign for.
    static let passTypeIdentifier = "pass.dev.passwright.clitests"
    /// A second pass type, made by a second `certs dev` run that must reuse the root CA.
    static let otherPassTypeIdentifier = "pass.dev.passwright.clitests.other"
    /// Ten characters, like Apple's team identifiers.
    static let teamIdentifier = "CLITEST123"

    /// What making the folder produced, for the `certs dev` tests to check.
    struct Folder: Sendable {
        /// The identities folder (`--identities`).
        let root: URL
        /// `dev-ca/root.pem`, for `verify --ca` and `openssl -CAfile`.
        let rootCA: URL
        /// The two `certs dev` runs, in order.
        let runs: [ProcessResult]
        /// `root.pem` after the first and after the second run.
        let rootAfterFirstRun: Data
        let rootAfterSecondRun: Data

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
        var runs: [ProcessResult] = []
        var rootBytes: [Data] = []
        for passType in [passTypeIdentifier, otherPassTypeIdentifier] {
            let run = try await CLI.run(["certs", "dev", "--out", root.path, "--pass-type-id", passType, "--team-id", teamIdentifier])
            guard run.status == 0 else { throw CertsDevFailed(result: run) }
            runs.append(run)
            rootBytes.append(try Data(contentsOf: rootCA))
        }
        return Folder(root: root, rootCA: rootCA, runs: runs, rootAfterFirstRun: rootBytes[0], rootAfterSecondRun: rootBytes[1])
    }

    struct CertsDevFailed: Error, CustomStringConvertible {
        let result: ProcessResult
        var description: String { "passwright certs dev failed: \(result)" }
    }
}
