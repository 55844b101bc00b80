import Foundation
import PasswrightTesting
import Testing

/// `certs dev` and `certs inspect`: the development PKI every other test signs with.
@Suite("certs")
struct CertsTests {
    @Test("certs dev writes the identities layout with private keys readable by the owner only")
    func devLayout() async throws {
        let identities = try await DevIdentities.shared.folder()
        #expect(identities.runs.count == Samples.templateNames.count)
        var expected = ["dev-ca/root.pem", "dev-ca/root-key.pem", "dev-ca/wwdr-key.pem", "wwdr/dev-wwdr.pem"]
        for run in identities.runs {
            expected += ["\(run.passType)/certificate.pem", "\(run.passType)/private-key.pem"]
        }
        for file in expected {
            #expect(FileManager.default.fileExists(atPath: identities.root.appendingPathComponent(file).path), "missing \(file)")
        }
        for key in expected where key.hasSuffix("key.pem") {
            let attributes = try FileManager.default.attributesOfItem(atPath: identities.root.appendingPathComponent(key).path)
            let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
            #expect(mode & 0o777 == 0o600, "\(key) has mode \(String(mode, radix: 8))")
        }
        let first = try #require(identities.runs.first)
        #expect(first.result.out.contains(first.passType))
        #expect(first.result.out.contains("NOT FOR PRODUCTION"))
        #expect(first.result.out.contains(identities.rootCA.path))
    }

    @Test("the Pass Type ID certificate's subject carries UID, CN and OU as Apple's do")
    func leafSubject() async throws {
        let identities = try await DevIdentities.shared.folder()
        let run = try #require(identities.runs.first)
        let certificate = identities.identityFolder(run.passType).appendingPathComponent("certificate.pem")
        let result = try await Subprocess.tool("openssl", ["x509", "-noout", "-subject", "-nameopt", "RFC2253", "-in", certificate.path])
        #expect(result.status == 0, "\(result)")
        let subject = result.out
        #expect(subject.contains("UID=\(run.passType)"), "\(subject)")
        #expect(subject.contains("CN=Pass Type ID: \(run.passType)"), "\(subject)")
        #expect(subject.contains("OU=\(run.team)"), "\(subject)")
    }

    @Test("further certs dev runs for other pass types reuse the root CA")
    func rootReused() async throws {
        let identities = try await DevIdentities.shared.folder()
        let roots = identities.runs.map(\.rootAfter)
        #expect(roots.count >= 2)
        #expect(!roots[0].isEmpty)
        #expect(roots.allSatisfy { $0 == roots[0] })
        // And the last pass type's certificate chains to that same root.
        let last = try #require(identities.runs.last)
        let chain = try await Subprocess.tool("openssl", [
            "verify", "-CAfile", identities.rootCA.path,
            "-untrusted", identities.root.appendingPathComponent("wwdr/dev-wwdr.pem").path,
            identities.identityFolder(last.passType).appendingPathComponent("certificate.pem").path,
        ])
        #expect(chain.status == 0, "\(chain)")
    }

    @Test("certs inspect shows the pass type, the team and the matching WWDR intermediate")
    func inspect() async throws {
        let identities = try await DevIdentities.shared.folder()
        let certificate = identities.identityFolder().appendingPathComponent("certificate.pem")
        let result = try await CLI.run(["certs", "inspect", "--identities", identities.root.path, certificate.path])
        #expect(result.status == 0, "\(result)")
        let lines = result.out.split(separator: "\n").map(String.init)
        let team = try #require(identities.runs.first?.team)
        #expect(lines.contains { $0.hasPrefix("pass type ID") && $0.hasSuffix(DevIdentities.passTypeIdentifier) }, "\(result)")
        #expect(lines.contains { $0.hasPrefix("team ID") && $0.hasSuffix(team) }, "\(result)")
        #expect(lines.contains { $0.hasPrefix("WWDR match") && $0.contains("Apple Worldwide Developer Relations Certification Authority DEV") }, "\(result)")
    }

    @Test("certs inspect without a matching intermediate says so and exits 1")
    func inspectWithoutIntermediate() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let certificate = identities.identityFolder().appendingPathComponent("certificate.pem")
            let result = try await CLI.run(["certs", "inspect", "--identities", folder.path, certificate.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.out.contains("WWDR match       none in \(folder.path)/wwdr"), "\(result)")
        }
    }

    @Test("certs inspect on a file that is not a certificate exits 1 with Error:")
    func inspectNotACertificate() async throws {
        try await withScratch { folder in
            let file = folder.appendingPathComponent("notes.pem")
            try Data("just some notes\n".utf8).write(to: file)
            let result = try await CLI.run(["certs", "inspect", file.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.hasPrefix("Error: "), "\(result)")
            #expect(result.err.contains(file.path), "\(result)")
        }
    }
}
