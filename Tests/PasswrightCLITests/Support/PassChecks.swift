import Foundation
import PasswrightTesting

/// Independent checks of a built pass with tools that share no code with Passwright.
enum PassChecks {
    /// Unzips `pkpass` into `workspace` and verifies `signature` over `manifest.json` with the
    /// `openssl smime` command line against `rootCA`; returns openssl's result.
    static func opensslVerify(_ pkpass: URL, rootCA: URL, workspace: URL) async throws -> ProcessResult {
        try await OpenSSL.verifyPassSignature(pkpass, rootCA: rootCA, workspace: workspace)
    }

    /// `passwright verify --ca rootCA file`.
    static func passwrightVerify(_ pkpass: URL, rootCA: URL) async throws -> ProcessResult {
        try await CLI.run(["verify", "--ca", rootCA.path, pkpass.path])
    }

    /// Runs a Python 3 script (the standard `zipfile` module builds hostile archives).
    static func python(_ script: String, _ arguments: [String]) async throws -> ProcessResult {
        try await Subprocess.tool("python3", ["-c", script] + arguments)
    }
}
