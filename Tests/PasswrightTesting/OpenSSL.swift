import Foundation

/// The real `openssl` command-line tool, to check the project's signing against an independent
/// implementation and to make certificates the project itself does not make.
///
/// Secrets go through `environment` (`-passin env:PW`, `-passout env:PW`), never as arguments, where
/// `ps` would show them; `environment` is added to this process's own.
public enum OpenSSL {
    /// Runs `openssl arguments…` and waits for it; blocks the calling thread.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try Subprocess.toolBlocking("openssl", arguments, environment: mergedEnvironment(environment))
    }

    /// Runs `openssl arguments…` and throws its output unless it succeeded: for set-up steps.
    @discardableResult
    public static func require(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let result = try run(arguments, environment: environment)
        guard result.succeeded else { throw FixtureError("openssl \(arguments.first ?? "") failed: \(result)") }
        return result
    }

    private static func mergedEnvironment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { $1 }
    }

    /// Unzips `pkpass` with the real `unzip` into a new folder in `workspace` and verifies its
    /// `signature` over `manifest.json` with `openssl smime` against `rootCA`; returns openssl's result.
    ///
    /// The round trip Apple's Wallet makes, with tools that share no code with Passwright.
    public static func verifyPassSignature(_ pkpass: URL, rootCA: URL, workspace: URL) async throws -> ProcessResult {
        try await verifyDetachedSignature(pkpass, rootCA: rootCA, workspace: workspace, command: "smime")
    }

    /// As ``verifyPassSignature(_:rootCA:workspace:)`` for any signed Wallet archive (an `.order`),
    /// with `openssl cms -verify`, the tool Apple's order documentation names.
    public static func verifyCMSSignature(_ archive: URL, rootCA: URL, workspace: URL) async throws -> ProcessResult {
        try await verifyDetachedSignature(archive, rootCA: rootCA, workspace: workspace, command: "cms")
    }

    private static func verifyDetachedSignature(_ archive: URL, rootCA: URL, workspace: URL, command: String) async throws -> ProcessResult {
        let folder = workspace.appendingPathComponent("unzipped-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let unzip = try await Subprocess.tool("unzip", ["-q", archive.path, "-d", folder.path])
        guard unzip.succeeded else { throw FixtureError("unzip failed: \(unzip)") }
        return try await Subprocess.tool("openssl", [
            command, "-verify", "-binary", "-inform", "DER",
            "-in", folder.appendingPathComponent("signature").path,
            "-content", folder.appendingPathComponent("manifest.json").path,
            "-CAfile", rootCA.path, "-purpose", "any", "-out", "/dev/null",
        ])
    }
}
