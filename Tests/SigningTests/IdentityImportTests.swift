import Foundation
import PasswrightTesting
import Testing
@testable import Signing

/// `CertificateRequest` → a certificate for it → `IdentityImport`, in-process: the checks each say
/// what is wrong and what to do.
@Suite("identity import")
struct IdentityImportTests {
    static let passType = "pass.com.example.imported"
    static let team = "ABCDE12345"

    /// A dev CA in `folder/ca`, a request, and the DER certificate the CA issued for it.
    static func issued(in folder: URL, subject passType: String = passType, notAfter: TimeInterval = 365 * 86_400) throws -> (request: CertificateRequest, cer: URL, ca: URL) {
        let ca = folder.appendingPathComponent("ca", isDirectory: true)
        _ = try DevCertificates.create(in: ca, passTypeIdentifier: "pass.dev.passwright.ca", teamIdentifier: team, now: Date())
        let request = try CertificateRequest(passTypeIdentifier: passType, teamIdentifier: team, passphrase: nil)
        let cer = folder.appendingPathComponent("pass.cer")
        let now = Date()
        try write(DevCertificates.issue(forRequest: request.csrPEM, in: ca, notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(notAfter)),
                  to: cer, permissions: 0o644)
        try write(request.privateKeyPEM, to: folder.appendingPathComponent("\(passType).key.pem"))
        return (request, cer, ca)
    }

    @Test("the key is found beside the .cer, the intermediate given with --wwdr is copied into wwdr/, and the folder loads")
    func importsWithIntermediate() throws {
        try withTemporaryDirectory { folder in
            let (request, cer, ca) = try Self.issued(in: folder)
            #expect(request.keyBits == 2048)
            var job = IdentityImport(file: cer, identities: folder.appendingPathComponent("identities"), now: Date()) { _ in nil }
            job.intermediates = [ca.appendingPathComponent("wwdr/dev-wwdr.pem")]
            let imported = try job.run()
            #expect(imported.certificate.passTypeIdentifier == Self.passType)
            #expect(imported.certificate.teamIdentifier == Self.team)
            #expect(imported.addedIntermediate?.deletingLastPathComponent().lastPathComponent == "wwdr")
            #expect(!imported.keyEncrypted)
            #expect(imported.warnings.isEmpty)
            let loaded = try IdentityDirectory(root: job.identities) { _ in nil }.identity(forPassTypeIdentifier: Self.passType)
            #expect(loaded.certificate == imported.certificate)
        }
    }

    @Test("without a matching WWDR intermediate the import names Apple's download and --wwdr")
    func missingIntermediate() throws {
        try withTemporaryDirectory { folder in
            let (_, cer, _) = try Self.issued(in: folder)
            let job = IdentityImport(file: cer, identities: folder.appendingPathComponent("identities"), now: Date()) { _ in nil }
            #expect { try job.run() } throws: { error in
                "\(error)".contains("https://www.apple.com/certificateauthority/") && "\(error)".contains("--wwdr FILE")
            }
        }
    }

    @Test("a certificate that is not for a pass type (an app's push certificate) is refused as the wrong kind")
    func wrongKind() throws {
        try withTemporaryDirectory { folder in
            let (_, cer, ca) = try Self.issued(in: folder, subject: "com.example.app")
            let job = IdentityImport(file: cer, identities: ca, now: Date()) { _ in nil }
            #expect { try job.run() } throws: { error in
                "\(error)".contains("is not a Pass Type ID or Order Type ID certificate") && "\(error)".contains("Identifiers")
            }
        }
    }

    @Test("a certificate expiring within 30 days imports with a warning to renew")
    func expiringWarns() throws {
        try withTemporaryDirectory { folder in
            let (_, cer, ca) = try Self.issued(in: folder, notAfter: 10 * 86_400)
            let imported = try IdentityImport(file: cer, identities: ca, now: Date()) { _ in nil }.run()
            #expect(imported.warnings.count == 1)
            #expect(imported.warnings.first?.contains("renew it in Apple's developer portal") == true)
        }
    }
}
