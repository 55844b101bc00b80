import Foundation
import PassCompiler
import PassLint
import PassModel
import PasswrightTesting
import Signing
import Testing

/// Real signed passes from the compiler with a throwaway development PKI, linted as `.pkpass` files,
/// and the template checked against real certificates.
@Suite("Archives and signing certificates")
struct ArchiveAndIdentityTests {
    static let record: JSONValue = TemplateSpec.parse(#"{"serialNumber": "S-1", "tier": "Gold", "points": "120", "since": "2019-06-01T00:00:00+02:00", "member": {"name": "Ada Okafor", "id": "M-0001"}}"#)

    /// A development identity for the store card's pass type in a temp folder.
    static func withIdentity<R>(passTypeIdentifier: String = "pass.com.example.lint", team: String = "A1B2C3D4E5",
                                _ body: (SigningIdentity, Certificate, DevIdentityFiles) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passlint-pki-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try DevCertificates.create(in: folder, passTypeIdentifier: passTypeIdentifier, teamIdentifier: team,
                                               now: TemplateSpec.now.addingTimeInterval(-86_400))
        let directory = IdentityDirectory(root: folder) { _ in nil }
        let identity = try directory.identity(forPassTypeIdentifier: passTypeIdentifier)
        let intermediate = try #require(try Certificate.loadAll(from: files.intermediate).first)
        return try body(identity, intermediate, files)
    }

    static func compiledArchive() throws -> Data {
        try withIdentity { identity, intermediate, _ in
            try TemplateSpec.storeCard.withTemplate { template in
                let compiler = try PassCompiler(template: template, identity: identity, intermediate: intermediate, now: TemplateSpec.now)
                return try compiler.compile(PassInput(record: record, recordName: "test"), at: TemplateSpec.now).archive
            }
        }
    }

    /// Unzips `archive`, lets `edit` change the files, and zips them again with the `zip` tool.
    static func rezip(_ archive: Data, _ edit: (URL) throws -> Void) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passlint-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try archive.write(to: folder.appendingPathComponent("in.pkpass"))
        let files = folder.appendingPathComponent("files")
        try tool("/usr/bin/unzip", ["-q", "../in.pkpass", "-d", "."], in: files, create: true)
        try edit(files)
        // PNGs stored, as the compiler does: deflated flat test images would look like zip bombs.
        try tool("/usr/bin/zip", ["-q", "-r", "-n", ".png", "../out.pkpass", "."], in: files)
        return try Data(contentsOf: folder.appendingPathComponent("out.pkpass"))
    }

    private static func tool(_ path: String, _ arguments: [String], in folder: URL, create: Bool = false) throws {
        if create { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let result = try Subprocess.runBlocking(URL(fileURLWithPath: path), arguments, directory: folder)
        try #require(result.status == 0, "\(path) \(arguments) failed: \(result)")
    }

    @Test("a pass the compiler signed lints clean as an archive")
    func cleanArchive() throws {
        let findings = Linter().lint(archive: try Self.compiledArchive(), now: TemplateSpec.now)
        #expect(findings == [])
    }

    @Test("pass.json edited after signing: the manifest no longer matches")
    func tamperedArchive() throws {
        let tampered = try Self.rezip(try Self.compiledArchive()) { files in
            let passJSON = files.appendingPathComponent("pass.json")
            let text = try String(contentsOf: passJSON, encoding: .utf8).replacingOccurrences(of: "Example Coffee", with: "Example Kaffee")
            try text.write(to: passJSON, atomically: true, encoding: .utf8)
        }
        let rules = Set(Linter().lint(archive: tampered, now: TemplateSpec.now).map(\.rule))
        #expect(rules.contains("archive.manifest"))
    }

    @Test("an archive without an icon: the verifier's layout error and the icon rule")
    func archiveWithoutIcon() throws {
        let stripped = try Self.rezip(try Self.compiledArchive()) { files in
            for name in ["icon.png", "icon@2x.png", "icon@3x.png"] { try FileManager.default.removeItem(at: files.appendingPathComponent(name)) }
        }
        let findings = Linter().lint(archive: stripped, now: TemplateSpec.now)
        #expect(findings.contains { $0.rule == "image.iconMissing" && $0.severity == .error })
        #expect(findings.contains { $0.rule == "archive.layout" })
    }

    @Test("bytes that are not a zip are one error, not a crash")
    func notAnArchive() {
        let findings = Linter().lint(archive: Data("not a zip".utf8), now: TemplateSpec.now)
        #expect(findings.map(\.rule) == ["archive.archive"])
    }

    @Test("the matching certificate and intermediate: no certificate findings")
    func matchingCertificate() throws {
        try Self.withIdentity { identity, intermediate, _ in
            let linter = Linter(intermediates: [intermediate])
            let findings = try TemplateSpec.storeCard.withTemplate { linter.lint(template: $0, identity: identity.certificate, now: TemplateSpec.now) }
            #expect(findings == [])
        }
    }

    @Test("a certificate for another pass type, another team, expired, expiring, or the wrong intermediate")
    func certificateProblems() throws {
        try Self.withIdentity(passTypeIdentifier: "pass.com.example.other", team: "Z9Y8X7W6V5") { identity, _, files in
            let root = try #require(try Certificate.loadAll(from: files.rootCertificate).first)
            let linter = Linter(intermediates: [root])
            let certificate = identity.certificate
            try TemplateSpec.storeCard.withTemplate { template in
                let now = Set(linter.lint(template: template, identity: certificate, now: TemplateSpec.now).map(\.rule))
                #expect(now.isSuperset(of: ["certificate.passTypeIdentifier", "certificate.teamIdentifier", "certificate.wwdr"]))
                #expect(!now.contains("certificate.expired"))
                let soon = linter.lint(template: template, identity: certificate, now: certificate.notAfter.addingTimeInterval(-7 * 86_400))
                #expect(soon.contains { $0.rule == "certificate.expiresSoon" && $0.severity == .warning })
                let later = linter.lint(template: template, identity: certificate, now: certificate.notAfter.addingTimeInterval(86_400))
                #expect(later.contains { $0.rule == "certificate.expired" && $0.severity == .error })
                #expect(linter.errors(in: template, identity: certificate, now: TemplateSpec.now).allSatisfy { $0.severity == .error })
            }
        }
    }
}
