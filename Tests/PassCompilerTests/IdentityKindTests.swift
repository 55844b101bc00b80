import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Signing
import Testing

/// The forms a Pass Type ID identity arrives in all load through `IdentityDirectory` and sign passes
/// that `openssl` accepts.
@Suite struct IdentityKindTests {
    enum Kind: String, CaseIterable, Sendable {
        case plainPEM, encryptedPEM, legacyPKCS12
    }

    static let passphrase = "correct horse battery staple"

    @Test(arguments: Kind.allCases)
    func identityKindSignsVerifiablePasses(kind: Kind) throws {
        try withTemporaryDirectory { folder in
            let identities = try ThrowawayPKI.shared()
            let source = try #require(identities.files[ThrowawayPKI.testPassType])
            let root = folder.appendingPathComponent("identities", isDirectory: true)
            let identityFolder = root.appendingPathComponent(ThrowawayPKI.testPassType, isDirectory: true)
            try write(Data(contentsOf: source.intermediate), to: root.appendingPathComponent("wwdr/dev-wwdr.pem"), permissions: 0o644)
            let certificate = identityFolder.appendingPathComponent("certificate.pem")
            let key = identityFolder.appendingPathComponent("private-key.pem")
            let environment = ["PW": Self.passphrase]
            switch kind {
            case .plainPEM:
                try write(Data(contentsOf: source.certificate), to: certificate, permissions: 0o644)
                try write(Data(contentsOf: source.privateKey), to: key)
            case .encryptedPEM:
                try write(Data(contentsOf: source.certificate), to: certificate, permissions: 0o644)
                try FileManager.default.createDirectory(at: identityFolder, withIntermediateDirectories: true)
                let result = try OpenSSL.run(["pkey", "-in", source.privateKey.path, "-aes256", "-passout", "env:PW", "-out", key.path],
                                             environment: environment)
                try #require(result.succeeded, "\(result.error)")
                #expect(try String(contentsOf: key, encoding: .utf8).contains("ENCRYPTED PRIVATE KEY"))
            case .legacyPKCS12:
                try FileManager.default.createDirectory(at: identityFolder, withIntermediateDirectories: true)
                let bundle = identityFolder.appendingPathComponent("identity.p12")
                let result = try OpenSSL.run([
                    "pkcs12", "-export", "-legacy", "-inkey", source.privateKey.path, "-in", source.certificate.path,
                    "-passout", "env:PW", "-out", bundle.path,
                ], environment: environment)
                try #require(result.succeeded, "\(result.error)")
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: bundle.path)
            }

            let directory = IdentityDirectory(root: root) { passType in
                kind == .plainPEM || passType != ThrowawayPKI.testPassType ? nil : Self.passphrase
            }
            let identity = try directory.identity(forPassTypeIdentifier: ThrowawayPKI.testPassType)
            let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: directory.intermediates(), at: Date())
            let template = try TestTemplate.load(in: folder)
            let compiler = try PassCompiler(template: template, identity: identity, intermediate: intermediate)
            let compiled = try compiler.compile(PassInput(record: TestTemplate.baseRecord, recordName: kind.rawValue))
            try expectVerifiesIndependently(compiled.archive, in: folder)
            #expect(PassVerifier.verify(archive: compiled.archive, trustedRoots: [identities.root]).isValid)
        }
    }

    /// Without the passphrase an encrypted key does not load, so the test above proves decryption.
    @Test func encryptedKeyNeedsItsPassphrase() throws {
        try withTemporaryDirectory { folder in
            let source = try #require(try ThrowawayPKI.shared().files[ThrowawayPKI.testPassType])
            let identityFolder = folder.appendingPathComponent(ThrowawayPKI.testPassType, isDirectory: true)
            try write(Data(contentsOf: source.certificate), to: identityFolder.appendingPathComponent("certificate.pem"), permissions: 0o644)
            let result = try OpenSSL.run([
                "pkey", "-in", source.privateKey.path, "-aes256", "-passout", "env:PW",
                "-out", identityFolder.appendingPathComponent("private-key.pem").path,
            ], environment: ["PW": Self.passphrase])
            try #require(result.succeeded, "\(result.error)")
            let directory = IdentityDirectory(root: folder) { _ in "wrong passphrase" }
            #expect(throws: SigningError.self) { try directory.identity(forPassTypeIdentifier: ThrowawayPKI.testPassType) }
        }
    }
}
