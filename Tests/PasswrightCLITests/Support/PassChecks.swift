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

    /// Copies the zip `archive` to `target` with the first `old` in `entry` replaced by `new` (as long,
    /// so only the bytes change): a signed archive tampered with after signing, by Python's
    /// `zipfile`, which shares no code with Passwright.
    static func tamper(_ archive: URL, into target: URL, entry: String, replacing old: String, with new: String) async throws {
        let rewrite = try await python("""
            import sys, zipfile
            source, target, entry, old, new = sys.argv[1:6]
            with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
                for item in zin.infolist():
                    data = zin.read(item.filename)
                    if item.filename == entry:
                        changed = data.replace(old.encode(), new.encode(), 1)
                        assert changed != data and len(changed) == len(data)
                        data = changed
                    zout.writestr(item, data)
            """, [archive.path, target.path, entry, old, new])
        guard rewrite.status == 0 else { throw FixtureError("tampering with \(entry) failed: \(rewrite)") }
    }
}
