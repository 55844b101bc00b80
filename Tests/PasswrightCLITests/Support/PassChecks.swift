import Foundation
import PasswrightTesting
import Testing

/// Independent checks of a built pass with tools that share no code with Passwright.
enum PassChecks {
    /// Unzips `pkpass` into `workspace` and verifies `signature` over `manifest.json` with the
    /// `openssl smime` command line against `rootCA`; returns openssl's result.
    static func opensslVerify(_ pkpass: URL, rootCA: URL, workspace: URL) async throws -> ProcessResult {
        let folder = workspace.appendingPathComponent("unzipped-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let unzip = try await Subprocess.tool("unzip", ["-q", pkpass.path, "-d", folder.path])
        try #require(unzip.status == 0, "unzip failed: \(unzip)")
        return try await Subprocess.tool("openssl", [
            "smime", "-verify", "-binary", "-inform", "DER",
            "-in", folder.appendingPathComponent("signature").path,
            "-content", folder.appendingPathComponent("manifest.json").path,
            "-CAfile", rootCA.path, "-purpose", "any", "-out", "/dev/null",
        ])
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
