import Foundation
import PasswrightTesting
import Testing

/// `passwright verify`: accepts what Wallet accepts, and names what is wrong with anything else.
@Suite("verify")
struct VerifyTests {
    /// Builds the loyalty sample with the shared identities into `folder` and returns its path.
    static func buildPass(in folder: URL) async throws -> URL {
        let identities = try await DevIdentities.shared.folder()
        let pass = folder.appendingPathComponent("loyalty.pkpass")
        let result = try await CLI.run(["build", Samples.template("loyalty").path, "--data", Samples.sample("loyalty.json").path,
                                        "--out", pass.path, "--identities", identities.root.path])
        try #require(result.status == 0, "\(result)")
        return pass
    }

    @Test("a good pass is valid against the dev root")
    func goodPass() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let pass = try await Self.buildPass(in: folder)
            let result = try await PassChecks.passwrightVerify(pass, rootCA: identities.rootCA)
            #expect(result.status == 0, "\(result)")
            #expect(result.out.hasSuffix("\nvalid\n"), "\(result)")
            #expect(result.out.contains("[ok] chain"), "\(result)")
            #expect(!result.out.contains("FAILED"))
        }
    }

    @Test("without --ca the signature is checked and the unchecked chain is a warning")
    func withoutRoot() async throws {
        try await withScratch { folder in
            let pass = try await Self.buildPass(in: folder)
            let result = try await CLI.run(["verify", pass.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.out.contains("[warning] chain: not checked"), "\(result)")
        }
    }

    @Test("a root that did not issue the chain fails the chain check")
    func otherRoot() async throws {
        try await withScratch { folder in
            let pass = try await Self.buildPass(in: folder)
            let otherRoot = folder.appendingPathComponent("other-root.pem")
            let key = folder.appendingPathComponent("other-root-key.pem")
            let made = try await Subprocess.tool("openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key.path, "-out", otherRoot.path, "-days", "2", "-subj", "/CN=Some Other Root",
            ])
            try #require(made.status == 0, "\(made)")
            let result = try await PassChecks.passwrightVerify(pass, rootCA: otherRoot)
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("the certificate chain is not trusted"), "\(result)")
            #expect(result.out.hasSuffix("\nINVALID\n"), "\(result)")
        }
    }

    @Test("one changed byte in pass.json fails the manifest check")
    func tampered() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let pass = try await Self.buildPass(in: folder)
            let tampered = folder.appendingPathComponent("tampered.pkpass")
            try await PassChecks.tamper(pass, into: tampered, entry: "pass.json", replacing: "Ada Okafor", with: "Ada Okafoq")
            let result = try await PassChecks.passwrightVerify(tampered, rootCA: identities.rootCA)
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("[FAILED] manifest: pass.json has SHA-1"), "\(result)")
            #expect(result.out.contains("[ok] signature"), "the signature over the untouched manifest still holds: \(result)")
        }
    }

    @Test("a file that is not a zip archive fails")
    func notAZip() async throws {
        try await withScratch { folder in
            let file = folder.appendingPathComponent("fake.pkpass")
            try Data("this is not a zip archive at all".utf8).write(to: file)
            let result = try await CLI.run(["verify", file.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("[FAILED] archive: not a readable zip archive"), "\(result)")
        }
    }

    @Test("a missing file fails with Error:")
    func missingFile() async throws {
        try await withScratch { folder in
            let result = try await CLI.run(["verify", folder.appendingPathComponent("absent.pkpass").path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: "), "\(result)")
            #expect(result.err.contains("absent.pkpass"), "\(result)")
        }
    }

    @Test("a zip bomb (100 MB of zeros) is refused by the limits before it is inflated")
    func zipBomb() async throws {
        try await withScratch { folder in
            let bomb = folder.appendingPathComponent("bomb.pkpass")
            let made = try await PassChecks.python("""
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                    z.writestr("pass.json", bytes(100 * 1024 * 1024))
                """, [bomb.path])
            try #require(made.status == 0, "\(made)")
            let result = try await CLI.run(["verify", bomb.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("[FAILED] archive"), "\(result)")
            #expect(result.out.contains("at most 20971520 are allowed per entry"), "\(result)")
        }
    }

    @Test("a zip bomb whose headers lie about its size stops inflating at the declared size")
    func lyingZipBomb() async throws {
        try await withScratch { folder in
            let bomb = folder.appendingPathComponent("liar.pkpass")
            // 100 MB of zeros as the last entry, then its local and central headers claim 10x the
            // compressed size: small enough to pass every declared-size limit.
            let made = try await PassChecks.python("""
                import struct, sys, zipfile
                with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                    for name in ("manifest.json", "signature", "icon.png"):
                        z.writestr(name, b"{}")
                    z.writestr("pass.json", bytes(100 * 1024 * 1024))
                data = bytearray(open(sys.argv[1], "rb").read())
                local = data.rfind(b"PK\\x03\\x04")
                lie = struct.unpack_from("<I", data, local + 18)[0] * 10
                struct.pack_into("<I", data, local + 22, lie)
                struct.pack_into("<I", data, data.rfind(b"PK\\x01\\x02") + 24, lie)
                open(sys.argv[1], "wb").write(data)
                """, [bomb.path])
            try #require(made.status == 0, "\(made)")
            let result = try await CLI.run(["verify", bomb.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("[FAILED] pass.json: cannot be read"), "\(result)")
            #expect(result.out.contains("inflates to more"), "\(result)")
        }
    }
}
