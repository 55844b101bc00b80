import Locking
import Foundation
import PasswrightTesting
import Testing
import Dispatch
@testable import Signing

@Suite struct SignatureTests {
    static let manifest = Data(#"{"pass.json":"a9993e364706816aba3e25717850c26c9cd0d89d"}"#.utf8)
    static let signingTime = Date(timeIntervalSince1970: 1_800_000_000) // 2027-01-15T08:00:00Z

    /// Signs the manifest and writes `manifest.json` and `signature` next to the PKI.
    private func signedFiles(_ pki: DevPKI, in folder: URL) throws -> (manifest: URL, signature: URL, bytes: Data) {
        let signature = try pki.signer().sign(Self.manifest, signingTime: Self.signingTime)
        let manifestFile = folder.appendingPathComponent("manifest.json")
        let signatureFile = folder.appendingPathComponent("signature")
        try Self.manifest.write(to: manifestFile)
        try signature.write(to: signatureFile)
        return (manifestFile, signatureFile, signature)
    }

    @Test func opensslSmimeVerifiesTheSignature() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let files = try signedFiles(pki, in: folder)
            let verified = try OpenSSL.run([
                "smime", "-verify", "-binary", "-inform", "DER", "-in", files.signature.path,
                "-content", files.manifest.path, "-CAfile", pki.files.rootCertificate.path, "-purpose", "any",
                "-out", "/dev/null",
            ])
            #expect(verified.succeeded, "\(verified.error)")
            #expect(verified.error.contains("Verification successful"))
        }
    }

    @Test func opensslSmimeRejectsTamperedContent() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let files = try signedFiles(pki, in: folder)
            try Data(#"{"pass.json":"0000000000000000000000000000000000000000"}"#.utf8).write(to: files.manifest)
            let verified = try OpenSSL.run([
                "smime", "-verify", "-binary", "-inform", "DER", "-in", files.signature.path,
                "-content", files.manifest.path, "-CAfile", pki.files.rootCertificate.path, "-purpose", "any",
                "-out", "/dev/null",
            ])
            #expect(!verified.succeeded)
            #expect(verified.error.contains("Verification failure"))
        }
    }

    @Test func structureHasSigningTimeTwoCertificatesAndNoContent() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let files = try signedFiles(pki, in: folder)
            let printed = try OpenSSL.run(["cms", "-cmsout", "-print", "-inform", "DER", "-in", files.signature.path])
            #expect(printed.succeeded, "\(printed.error)")
            let text = printed.output
            #expect(text.contains("contentType: pkcs7-signedData"))
            #expect(text.contains("eContent: <ABSENT>"))
            #expect(text.contains("object: signingTime (1.2.840.113549.1.9.5)"))
            #expect(text.contains("UTCTIME:Jan 15 08:00:00 2027 GMT"))
            #expect(text.contains("object: messageDigest (1.2.840.113549.1.9.4)"))
            #expect(text.contains("algorithm: sha256 (2.16.840.1.101.3.4.2.1)"))
            #expect(text.contains("d.issuerAndSerialNumber"))
            #expect(!text.contains("SMIMECapabilities"))
            #expect(text.components(separatedBy: "d.certificate:").count - 1 == 2)
        }
    }

    @Test func ownVerifierAcceptsAndReportsFacts() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let signature = try pki.signer().sign(Self.manifest, signingTime: Self.signingTime)
            let checked = try SignatureVerification.verify(signature: signature, content: Self.manifest,
                                                           trustedRoots: [pki.rootCertificate], at: Date())
            #expect(checked.signer == pki.leaf)
            #expect(Set(checked.certificates) == [pki.leaf, pki.intermediate])
            #expect(checked.signingTime == Self.signingTime)
            #expect(checked.digestAlgorithm == "SHA256")
            #expect(checked.isDetached)
            #expect(checked.chainVerified)

            let unchained = try SignatureVerification.verify(signature: signature, content: Self.manifest, trustedRoots: [], at: Date())
            #expect(!unchained.chainVerified)
        }
    }

    @Test func ownVerifierNamesWhatFailed() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let other = try DevPKI(in: folder.appendingPathComponent("other"))
            let signature = try pki.signer().sign(Self.manifest, signingTime: Self.signingTime)

            do {
                _ = try SignatureVerification.verify(signature: signature, content: Self.manifest + Data(" ".utf8),
                                                     trustedRoots: [pki.rootCertificate], at: Date())
                Issue.record("changed content verified")
            } catch let SigningError.verificationFailed(problem, details) {
                #expect(problem == .digestMismatch)
                #expect(details.contains("content verify error"))
            }
            do {
                _ = try SignatureVerification.verify(signature: signature, content: Self.manifest,
                                                     trustedRoots: [other.rootCertificate], at: Date())
                Issue.record("a chain to an unrelated root verified")
            } catch let SigningError.verificationFailed(.untrustedChain(reason), _) {
                #expect(reason.contains("unable to get local issuer certificate"))
            }
            do {
                _ = try SignatureVerification.verify(signature: Data("not a signature".utf8), content: Self.manifest,
                                                     trustedRoots: [], at: Date())
                Issue.record("garbage verified")
            } catch let SigningError.verificationFailed(problem, _) {
                #expect(problem == .notDER)
            }
            var corrupted = signature
            corrupted[corrupted.count - 10] ^= 0xFF // inside the RSA signature value, the last field
            do {
                _ = try SignatureVerification.verify(signature: corrupted, content: Self.manifest, trustedRoots: [], at: Date())
                Issue.record("a corrupted signature verified")
            } catch let SigningError.verificationFailed(problem, _) {
                #expect(problem == .badSignature)
            }
        }
    }

    @Test func ownVerifierRejectsEmbeddedContentAndMissingSigningTime() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let manifest = folder.appendingPathComponent("manifest.json")
            try Self.manifest.write(to: manifest)
            let cases: [(extra: [String], problem: SignatureProblem)] = [(["-nodetach"], .notDetached), (["-noattr"], .missingSigningTime)]
            for (extra, problem) in cases {
                let output = folder.appendingPathComponent("signature")
                let made = try OpenSSL.run(["cms", "-sign", "-binary", "-in", manifest.path, "-signer", pki.files.certificate.path,
                                                   "-inkey", pki.files.privateKey.path, "-outform", "DER", "-out", output.path] + extra)
                #expect(made.succeeded, "\(made.error)")
                do {
                    _ = try SignatureVerification.verify(signature: Data(contentsOf: output), content: Self.manifest, trustedRoots: [], at: Date())
                    Issue.record("\(extra) verified")
                } catch let SigningError.verificationFailed(found, _) {
                    #expect(found == problem)
                }
            }
        }
    }

    @Test func oneSignerSignsFromManyThreadsAtOnce() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let signer = try pki.signer()
            let contents = (0..<32).map { Data("manifest \($0)".utf8) }
            let results = Locked<[Int: Result<Data, any Error>]>([:])
            DispatchQueue.concurrentPerform(iterations: contents.count) { index in
                let result = Result { try signer.sign(contents[index], signingTime: Self.signingTime) }
                results.withLock { $0[index] = result }
            }
            let collected = results.withLock { $0 }
            #expect(collected.count == contents.count)
            for (index, result) in collected {
                let signature = try result.get()
                let checked = try SignatureVerification.verify(signature: signature, content: contents[index],
                                                               trustedRoots: [pki.rootCertificate], at: Date())
                #expect(checked.chainVerified)
            }
        }
    }
}
