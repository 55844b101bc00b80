import Foundation
import PasswrightTesting
import Testing

/// `passwright build`: one template and one record make one signed pass, or nothing at all.
@Suite("build")
struct BuildTests {
    static let loyalty = Samples.template("loyalty")

    @Test("every sample template builds with its sample record into a pass openssl and passwright verify", arguments: Samples.templateNames)
    func buildsSample(name: String) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let result = try await CLI.run(["build", Samples.template(name).path, "--data", Samples.sample("\(name).json").path,
                                            "--identities", identities.root.path], in: folder)
            #expect(result.status == 0, "\(result)")
            let written = folder.fileNames()
            #expect(written.count == 1 && written[0].hasSuffix(".pkpass"), "\(written)")
            let pass = folder.appendingPathComponent(try #require(written.first))
            #expect(result.out.hasPrefix("\(written[0]) "), "stdout names the pass: \(result)")

            let openssl = try await PassChecks.opensslVerify(pass, rootCA: identities.rootCA, workspace: folder)
            #expect(openssl.status == 0, "\(openssl)")
            #expect(openssl.err.contains("Verification successful"), "\(openssl)")
            let verify = try await PassChecks.passwrightVerify(pass, rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("build names the pass <serialNumber>.pkpass after the record")
    func namedAfterSerial() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            try Samples.loyaltyRecord(["serialNumber": "M-0001"]).write(to: folder.appendingPathComponent("record.json"))
            let result = try await CLI.run(["build", Self.loyalty.path, "--data", "record.json", "--identities", identities.root.path], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.out.hasPrefix("M-0001.pkpass (pass.dev.passwright.loyalty, serial M-0001, "), "\(result)")
            #expect(folder.fileNames() == ["M-0001.pkpass", "record.json"])
        }
    }

    @Test("build --out writes where asked, creating the folder")
    func buildsToOut() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let out = folder.appendingPathComponent("passes/ada.pkpass")
            let result = try await CLI.run(["build", Self.loyalty.path, "--data", Samples.sample("loyalty.json").path,
                                            "--out", out.path, "--identities", identities.root.path], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.out.hasPrefix(out.path), "\(result)")
            #expect(folder.fileNames() == ["passes"])
            let verify = try await PassChecks.passwrightVerify(out, rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("build --out - writes the archive to standard output and --data - reads standard input")
    func buildsThroughPipes() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let result = try await CLI.run(
                ["build", Self.loyalty.path, "--data", "-", "--out", "-", "--identities", identities.root.path],
                stdin: try Samples.loyaltyRecord(["serialNumber": "PIPE-7"]), in: folder)
            #expect(result.status == 0, "\(result.err)")
            #expect(result.stdout.starts(with: Data("PK".utf8)))
            #expect(folder.fileNames().isEmpty, "nothing may be written to the folder")
            let pass = folder.appendingPathComponent("from-stdout.pkpass")
            try result.stdout.write(to: pass)
            let verify = try await PassChecks.passwrightVerify(pass, rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.out.contains("valid storeCard PIPE-7"), "the record read from stdin must fill the pass: \(verify)")
        }
    }

    @Test("a record without a placeholder's value fails, names both, and writes nothing")
    func missingPlaceholderValue() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            try Samples.loyaltyRecord(["member.name": nil]).write(to: folder.appendingPathComponent("incomplete.json"))
            let result = try await CLI.run(["build", Self.loyalty.path, "--data", "incomplete.json", "--identities", identities.root.path], in: folder)
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: incomplete.json: "), "\(result)")
            #expect(result.err.contains("{{member.name}}"), "\(result)")
            #expect(folder.fileNames() == ["incomplete.json"], "no pass and no temporary file may be left")
        }
    }

    /// Models made with passkit-generator and similar libraries often carry an app link and no app:
    /// Wallet ignores the key and installs the pass, so the build signs it and only lint warns.
    @Test("appLaunchURL without associatedStoreIdentifiers builds a pass openssl verifies; lint warns")
    func appLaunchURLWithoutApp() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try Samples.copy("loyalty", into: folder) { $0["appLaunchURL"] = "beanandleaf://card" }
            let out = folder.appendingPathComponent("card.pkpass")
            let result = try await CLI.run(["build", template.path, "--data", Samples.sample("loyalty.json").path,
                                            "--out", out.path, "--identities", identities.root.path], in: folder)
            #expect(result.status == 0, "\(result)")
            let openssl = try await PassChecks.opensslVerify(out, rootCA: identities.rootCA, workspace: folder)
            #expect(openssl.status == 0 && openssl.err.contains("Verification successful"), "\(openssl)")
            let lint = try await CLI.run(["lint", template.path], in: folder)
            #expect(lint.out.contains("appLaunchURL.storeIdentifiers") && lint.out.contains("warning"), "\(lint)")
            #expect(!lint.out.contains("refuses the pass"), "\(lint)")
        }
    }

    @Test("a pass Wallet would refuse (a bad colour) fails and writes nothing")
    func invalidPass() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try Samples.copy("loyalty", into: folder) { $0["backgroundColor"] = "rgb(300, 0, 0)" }
            let out = folder.appendingPathComponent("out/bad.pkpass")
            let result = try await CLI.run(["build", template.path, "--data", Samples.sample("loyalty.json").path,
                                            "--out", out.path, "--identities", identities.root.path], in: folder)
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: "), "\(result)")
            #expect(result.err.contains("backgroundColor"), "\(result)")
            #expect(folder.fileNames() == ["loyalty"], "neither the pass nor its folder may be written")
        }
    }

    @Test("a template whose pass type has no identity fails naming the folder looked in")
    func noIdentity() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try Samples.copy("loyalty", into: folder) { $0["passTypeIdentifier"] = "pass.dev.passwright.nobody" }
            let result = try await CLI.run(["build", template.path, "--data", Samples.sample("loyalty.json").path,
                                            "--identities", identities.root.path], in: folder)
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: "), "\(result)")
            #expect(result.err.contains(identities.root.appendingPathComponent("pass.dev.passwright.nobody").path), "\(result)")
            #expect(folder.fileNames() == ["loyalty"])
        }
    }

    @Test("the identities folder comes from --identities, then $PASSWRIGHT_IDENTITIES")
    func identitiesFolderPrecedence() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let arguments = ["build", Self.loyalty.path, "--data", Samples.sample("loyalty.json").path, "--out", "-"]
            let fromEnvironment = try await CLI.run(arguments, environment: ["PASSWRIGHT_IDENTITIES": identities.root.path], in: folder)
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.err)")
            let flagWins = try await CLI.run(arguments + ["--identities", identities.root.path],
                                             environment: ["PASSWRIGHT_IDENTITIES": folder.path], in: folder)
            #expect(flagWins.status == 0, "\(flagWins.err)")
            let neither = try await CLI.run(arguments, in: folder)
            #expect(neither.status == 1, "\(neither)")
            #expect(neither.err.contains("Certificates/pass.dev.passwright.loyalty"), "the default is ./Certificates: \(neither)")
        }
    }

    @Test("the web service URL comes from --web-service-url, then $PASSWRIGHT_WEB_SERVICE_URL, with a fresh token")
    func webServiceURL() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let arguments = ["build", Self.loyalty.path, "--data", Samples.sample("loyalty.json").path, "--identities", identities.root.path]
            let cases: [(name: String, extra: [String], environment: [String: String], expected: String)] = [
                ("env", [], ["PASSWRIGHT_WEB_SERVICE_URL": "https://env.example.com/wallet"], "https://env.example.com/wallet"),
                ("flag", ["--web-service-url", "https://flag.example.com/wallet"],
                 ["PASSWRIGHT_WEB_SERVICE_URL": "https://env.example.com/wallet"], "https://flag.example.com/wallet"),
            ]
            var tokens: [String] = []
            for item in cases {
                let pass = folder.appendingPathComponent("\(item.name).pkpass")
                let result = try await CLI.run(arguments + item.extra + ["--out", pass.path], environment: item.environment)
                #expect(result.status == 0, "\(result)")
                let passJSON = try await Subprocess.tool("unzip", ["-p", pass.path, "pass.json"])
                let object = try JSONSerialization.jsonObject(with: passJSON.stdout) as? [String: Any]
                #expect(object?["webServiceURL"] as? String == item.expected, "\(item.name)")
                let token = try #require(object?["authenticationToken"] as? String, "\(item.name)")
                #expect(token.count >= 16, "Wallet needs a token of at least 16 characters")
                tokens.append(token)
            }
            #expect(Set(tokens).count == tokens.count, "each pass gets its own token")
        }
    }

    /// The variable naming the loyalty pass type's passphrase, and the catch-all one.
    static let passphraseVariables = ["PASSWRIGHT_KEY_PASSPHRASE_PASS_DEV_PASSWRIGHT_LOYALTY", "PASSWRIGHT_KEY_PASSPHRASE"]

    @Test("an encrypted key opens with the passphrase from the environment and never shows it", arguments: passphraseVariables)
    func encryptedKey(variable: String) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let passphrase = "pw-" + UUID().uuidString
            let wrongPassphrase = "wrong-" + UUID().uuidString
            let encrypted = try await Self.identitiesWithEncryptedKey(copying: identities, into: folder, passphrase: passphrase)
            try Samples.loyaltyRecord(["serialNumber": "ENC-1"]).write(to: folder.appendingPathComponent("record.json"))
            let arguments = ["build", Self.loyalty.path, "--data", "record.json", "--identities", encrypted.path]

            let opened = try await CLI.run(arguments, environment: [variable: passphrase], in: folder)
            #expect(opened.status == 0, "\(opened)")
            let verify = try await PassChecks.passwrightVerify(folder.appendingPathComponent("ENC-1.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")

            try FileManager.default.removeItem(at: folder.appendingPathComponent("ENC-1.pkpass"))
            let missing = try await CLI.run(arguments, in: folder)
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.err.hasPrefix("Error: "), "\(missing)")
            #expect(missing.err.contains("encrypted and no passphrase was given"), "\(missing)")
            #expect(missing.err.contains("PASSWRIGHT_KEY_PASSPHRASE_PASS_DEV_PASSWRIGHT_LOYALTY or PASSWRIGHT_KEY_PASSPHRASE"), "the error names where to set it: \(missing)")

            let wrong = try await CLI.run(arguments, environment: [variable: wrongPassphrase], in: folder)
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.err.contains("passphrase does not open"), "\(wrong)")

            for result in [opened, missing, wrong] {
                for secret in [passphrase, wrongPassphrase] {
                    #expect(!result.out.contains(secret) && !result.err.contains(secret), "a passphrase leaked: \(result)")
                }
            }
            #expect(!folder.fileNames().contains("ENC-1.pkpass"), "failed runs must not write the pass")
        }
    }

    /// Identities made by root (0700) read by another user (a container's): the error says
    /// permission denied and names the user, not "The file doesn't exist".
    @Test("an identity the user may not read is reported as permission denied, naming the user")
    func unreadableIdentity() async throws {
        let identities = try await DevIdentities.shared.folder()
        try #require(getuid() == 0, "needs root to make a file another user cannot read")
        try await withScratch { folder in
            let root = folder.appendingPathComponent("identities", isDirectory: true)
            try FileManager.default.copyItem(at: identities.root, to: root)
            for path in [folder.path, root.path, root.appendingPathComponent("wwdr").path] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
            let identity = root.appendingPathComponent(DevIdentities.passTypeIdentifier).path
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: identity)
            let record = try Samples.loyaltyRecord(["serialNumber": "PERM-1"])
            let result = try await Subprocess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", try CLI.binary().path,
                 "build", Self.loyalty.path, "--data", "-", "--out", "-", "--identities", root.path],
                stdin: record, environment: ["PATH": "/usr/bin:/bin"], directory: folder)
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("permission denied"), "\(result)")
            #expect(result.err.contains("runs as user nobody"), "\(result)")
            #expect(!result.err.contains("doesn’t exist") && !result.err.contains("doesn't exist"), "\(result)")
        }
    }

    /// Apple's download is DER: as `certificate.pem`, or as `pass.cer` next to the key, it is read.
    @Test("a DER certificate in certificate.pem, or Apple's pass.cer next to the key, signs", arguments: ["certificate.pem", "pass.cer"])
    func derCertificate(name: String) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let (root, identity) = try Self.identitiesCopy(of: identities, into: folder, file: "private-key.pem")
            _ = try OpenSSL.require(["x509", "-in", identities.identityFolder().appendingPathComponent("certificate.pem").path,
                                     "-outform", "DER", "-out", identity.appendingPathComponent(name).path])
            try Samples.loyaltyRecord(["serialNumber": "DER-1"]).write(to: folder.appendingPathComponent("record.json"))
            let result = try await CLI.run(["build", Self.loyalty.path, "--data", "record.json", "--identities", root.path], in: folder)
            #expect(result.status == 0, "\(result)")
        }
    }

    /// `<folder>/identities` with the shared `wwdr/` and one `file` of the loyalty identity; returns
    /// the identities folder and the loyalty pass type's folder, for a test to add the other file.
    static func identitiesCopy(of identities: DevIdentities.Folder, into folder: URL, file: String) throws -> (root: URL, identity: URL) {
        let root = folder.appendingPathComponent("identities", isDirectory: true)
        let identity = root.appendingPathComponent(DevIdentities.passTypeIdentifier, isDirectory: true)
        try FileManager.default.createDirectory(at: identity, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: identities.root.appendingPathComponent("wwdr"), to: root.appendingPathComponent("wwdr"))
        try FileManager.default.copyItem(at: identities.identityFolder().appendingPathComponent(file), to: identity.appendingPathComponent(file))
        return (root, identity)
    }

    /// A copy of the shared identities (the loyalty pass type and `wwdr/`) with the key encrypted by
    /// `openssl pkey`, the passphrase handed over in the environment, never on the command line.
    static func identitiesWithEncryptedKey(copying identities: DevIdentities.Folder, into folder: URL, passphrase: String) async throws -> URL {
        let (root, identity) = try identitiesCopy(of: identities, into: folder, file: "certificate.pem")
        let key = identity.appendingPathComponent("private-key.pem")
        let encrypt = try await Subprocess.tool("openssl", [
            "pkey", "-in", identities.identityFolder().appendingPathComponent("private-key.pem").path,
            "-aes256", "-passout", "env:CLI_TEST_KEY_PASSPHRASE", "-out", key.path,
        ], environment: ["CLI_TEST_KEY_PASSPHRASE": passphrase, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
        try #require(encrypt.status == 0, "\(encrypt)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        let pem = try String(contentsOf: key, encoding: .utf8)
        try #require(pem.contains("ENCRYPTED PRIVATE KEY"))
        return root
    }
}
