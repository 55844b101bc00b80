import Foundation
import PasswrightTesting
import Testing
@testable import Signing

@Suite struct DevCertificatesTests {
    @Test func leafIsShapedLikeAPassTypeIDCertificate() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let shown = try OpenSSL.run([
                "x509", "-in", pki.files.certificate.path, "-noout", "-subject", "-nameopt", "RFC2253",
                "-ext", "basicConstraints,keyUsage,extendedKeyUsage,subjectKeyIdentifier,authorityKeyIdentifier",
            ])
            #expect(shown.succeeded, "\(shown.error)")
            #expect(shown.output.contains("subject=C=US,O=Passwright Development (NOT FOR PRODUCTION),OU=TEAM123456,CN=Pass Type ID: pass.dev.passwright.test,UID=pass.dev.passwright.test"))
            #expect(shown.output.contains("CA:FALSE"))
            #expect(shown.output.contains("Digital Signature"))
            #expect(shown.output.contains("TLS Web Client Authentication"))
            #expect(shown.output.contains("X509v3 Subject Key Identifier"))
            #expect(shown.output.contains("X509v3 Authority Key Identifier"))
            #expect(pki.leaf.authorityKeyIdentifier == pki.intermediate.subjectKeyIdentifier)
        }
    }

    @Test func intermediateIsShapedLikeWWDRG4AndRootIsLabelled() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let shown = try OpenSSL.run([
                "x509", "-in", pki.files.intermediate.path, "-noout", "-subject", "-issuer", "-nameopt", "RFC2253",
                "-ext", "basicConstraints,keyUsage",
            ])
            #expect(shown.succeeded, "\(shown.error)")
            #expect(shown.output.contains("subject=CN=Apple Worldwide Developer Relations Certification Authority DEV,OU=G4,O=Passwright Development (NOT FOR PRODUCTION),C=US"))
            #expect(shown.output.contains("issuer=CN=Passwright Development Root CA (NOT FOR PRODUCTION)"))
            #expect(shown.output.contains("CA:TRUE"))
            #expect(shown.output.contains("Certificate Sign"))
            #expect(pki.intermediate.isCertificateAuthority && pki.rootCertificate.isCertificateAuthority)
            #expect(!pki.leaf.isCertificateAuthority)
            #expect(pki.rootCertificate.subject == pki.rootCertificate.issuer)
            #expect(pki.rootCertificate.notAfter.timeIntervalSince(pki.rootCertificate.notBefore) >= 10 * 365 * 86400)
        }
    }

    @Test func chainVerifiesWithTheOpenSSLCommand() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let verified = try OpenSSL.run([
                "verify", "-CAfile", pki.files.rootCertificate.path, "-untrusted", pki.files.intermediate.path,
                pki.files.certificate.path,
            ])
            #expect(verified.succeeded, "\(verified.output) \(verified.error)")
            #expect(verified.output.contains(": OK"))
        }
    }

    @Test func keysAreWrittenOwnerOnly() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let keys = [pki.files.privateKey, folder.appendingPathComponent("dev-ca/root-key.pem"),
                        folder.appendingPathComponent("dev-ca/wwdr-key.pem")]
            for key in keys {
                let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? NSNumber
                #expect(mode?.intValue == 0o600, "\(key.path)")
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: pki.files.certificate.deletingLastPathComponent().path)
            #expect(leftovers.sorted() == ["certificate.pem", "private-key.pem"])
        }
    }

    @Test func secondPassTypeReusesRootAndIntermediate() throws {
        try withTemporaryDirectory { folder in
            let first = try DevPKI(in: folder)
            let second = try DevPKI(in: folder, passType: "pass.dev.passwright.other", team: "OTHERTEAM1")
            #expect(second.rootCertificate == first.rootCertificate)
            #expect(second.intermediate == first.intermediate)
            #expect(second.leaf != first.leaf)
            #expect(second.leaf.passTypeIdentifier == "pass.dev.passwright.other")
            let verified = try OpenSSL.run([
                "verify", "-CAfile", first.files.rootCertificate.path, "-untrusted", first.files.intermediate.path,
                second.files.certificate.path,
            ])
            #expect(verified.succeeded, "\(verified.output) \(verified.error)")
        }
    }

    @Test func refusesAPassTypeThatIsNotAFolderName() throws {
        try withTemporaryDirectory { folder in
            #expect(throws: SigningError.self) {
                try DevCertificates.create(in: folder, passTypeIdentifier: "wwdr", teamIdentifier: "T", now: Date())
            }
            #expect(throws: SigningError.self) {
                try DevCertificates.create(in: folder, passTypeIdentifier: "../escape", teamIdentifier: "T", now: Date())
            }
        }
    }
}
