import Foundation
import PasswrightTesting
import Testing
@testable import Signing

/// The forms a Pass Type ID identity arrives in: what Keychain, Apple's portal and `openssl` produce.
enum IdentityKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case plainPEM, encryptedPKCS8PEM, encryptedTraditionalPEM, legacyP12, modernP12

    var testDescription: String { rawValue }
    static let password = "correct horse battery staple"

    var isEncrypted: Bool { self != .plainPEM }

    /// Converts the development identity in `pki` into this form inside `pki`'s identity folder,
    /// with the real `openssl` (password through the environment, never an argument).
    func prepare(_ pki: DevPKI) throws {
        let folder = pki.files.certificate.deletingLastPathComponent()
        let environment = ["PW": Self.password]
        let encryptedKey = folder.appendingPathComponent("encrypted-key.pem")
        func run(_ arguments: [String]) throws {
            let result = try OpenSSL.run(arguments, environment: environment)
            #expect(result.succeeded, "openssl \(arguments.first ?? ""): \(result.error)")
        }
        switch self {
        case .plainPEM:
            return
        case .encryptedPKCS8PEM:
            try run(["pkey", "-in", pki.files.privateKey.path, "-aes256", "-passout", "env:PW", "-out", encryptedKey.path])
        case .encryptedTraditionalPEM:
            try run(["rsa", "-in", pki.files.privateKey.path, "-aes256", "-traditional", "-passout", "env:PW", "-out", encryptedKey.path])
        case .legacyP12, .modernP12:
            let bundle = folder.appendingPathComponent("identity.p12")
            try run(["pkcs12", "-export", "-in", pki.files.certificate.path, "-inkey", pki.files.privateKey.path,
                     "-passout", "env:PW", "-out", bundle.path] + (self == .legacyP12 ? ["-legacy"] : []))
            try FileManager.default.removeItem(at: pki.files.certificate)
            try FileManager.default.removeItem(at: pki.files.privateKey)
            return
        }
        try FileManager.default.removeItem(at: pki.files.privateKey)
        try FileManager.default.moveItem(at: encryptedKey, to: pki.files.privateKey)
    }
}

@Suite struct IdentityTests {
    @Test(arguments: IdentityKind.allCases)
    func loadsEachKindAndSignsVerifiably(kind: IdentityKind) throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            try kind.prepare(pki)
            let directory = IdentityDirectory(root: folder) { _ in kind.isEncrypted ? IdentityKind.password : nil }
            let identity = try directory.identity(forPassTypeIdentifier: DevPKI.passType)
            #expect(identity.certificate == pki.leaf)

            let manifest = Data("{}".utf8)
            let signature = try PassSigner(identity: identity, intermediate: pki.intermediate).sign(manifest, signingTime: Date())
            let checked = try SignatureVerification.verify(signature: signature, content: manifest,
                                                           trustedRoots: [pki.rootCertificate], at: Date())
            #expect(checked.signer == pki.leaf)
        }
    }

    @Test func legacyP12IsReallyRC2Encrypted() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            try IdentityKind.legacyP12.prepare(pki)
            let bundle = pki.files.certificate.deletingLastPathComponent().appendingPathComponent("identity.p12")
            let info = try OpenSSL.run(["pkcs12", "-info", "-noout", "-legacy", "-in", bundle.path, "-passin", "env:PW"],
                                              environment: ["PW": IdentityKind.password])
            #expect(info.error.contains("pbeWithSHA1And40BitRC2-CBC"), "\(info.error)")
        }
    }

    @Test(arguments: IdentityKind.allCases.filter(\.isEncrypted))
    func wrongOrMissingPasswordIsNamed(kind: IdentityKind) throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            try kind.prepare(pki)
            do {
                _ = try IdentityDirectory(root: folder) { _ in "wrong password" }.identity(forPassTypeIdentifier: DevPKI.passType)
                Issue.record("a wrong password opened the \(kind) identity")
            } catch let SigningError.wrongPassphrase(source, _) {
                #expect(source.hasPrefix(folder.path))
            }
            do {
                _ = try IdentityDirectory(root: folder) { _ in nil }.identity(forPassTypeIdentifier: DevPKI.passType)
                Issue.record("a missing password opened the \(kind) identity")
            } catch let SigningError.passphraseRequired(source) {
                #expect(source.hasPrefix(folder.path))
            }
        }
    }

    @Test func keyOfAnotherCertificateIsRefused() throws {
        try withTemporaryDirectory { folder in
            let first = try DevPKI(in: folder)
            let second = try DevPKI(in: folder, passType: "pass.dev.passwright.other")
            do {
                _ = try SigningIdentity(certificatePEM: Data(contentsOf: first.files.certificate),
                                        privateKeyPEM: Data(contentsOf: second.files.privateKey), passphrase: nil)
                Issue.record("a key loaded with another key's certificate")
            } catch let error as SigningError {
                guard case .keyDoesNotMatchCertificate = error else { throw error }
                #expect(error.description.contains("does not belong"))
            }
        }
    }

    @Test func garbageIsNotAKeyOrCertificate() throws {
        let garbage = Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8)
        do {
            _ = try SigningIdentity(certificatePEM: garbage, privateKeyPEM: garbage, passphrase: nil)
            Issue.record("garbage loaded")
        } catch let SigningError.invalidCertificate(source, _) {
            #expect(source == "certificate PEM")
        }
        #expect(throws: SigningError.self) { try SigningIdentity(pkcs12: Data("nope".utf8), password: nil) }
    }
}
