import Foundation
import PasswrightTesting
import Testing
@testable import Signing

@Suite struct WWDRSelectionTests {
    @Test func picksTheIssuerAmongSeveral() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let unrelated = try DevPKI(in: folder.appendingPathComponent("unrelated"))
            // Same subject DN as the right one, different key: only the key identifiers tell them apart.
            #expect(unrelated.intermediate.subject == pki.intermediate.subject)
            let candidates = [unrelated.intermediate, pki.rootCertificate, pki.intermediate]
            let chosen = try WWDRSelection.intermediate(for: pki.leaf, among: candidates, at: Date())
            #expect(chosen == pki.intermediate)
        }
    }

    @Test func noMatchNamesTheIssuerAndCandidates() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let unrelated = try DevPKI(in: folder.appendingPathComponent("unrelated"))
            do {
                _ = try WWDRSelection.intermediate(for: pki.leaf, among: [unrelated.intermediate, pki.rootCertificate], at: Date())
                Issue.record("an unrelated intermediate was chosen")
            } catch let error as SigningError {
                guard case let .noMatchingIntermediate(issuer, candidates) = error else { throw error }
                #expect(issuer.hasPrefix(pki.leaf.issuer))
                #expect(candidates.count == 2)
                #expect(candidates.first?.hasPrefix(unrelated.intermediate.subject) == true)
                // The unrelated intermediate has the same name as the signer's issuer: the message must
                // show what differs, the key identifiers, not the same name twice.
                func hex(_ data: Data?) -> String { (data ?? Data()).map { String(format: "%02X", $0) }.joined(separator: ":") }
                let wanted = hex(pki.leaf.authorityKeyIdentifier), found = hex(unrelated.intermediate.subjectKeyIdentifier)
                #expect(wanted != found && !wanted.isEmpty)
                #expect(error.description.contains(wanted) && error.description.contains(found), "\(error)")
            }
        }
    }

    @Test func expiredSignerIsRefused() throws {
        try withTemporaryDirectory { folder in
            let twoYearsAgo = Date().addingTimeInterval(-2 * 365 * 86400)
            let pki = try DevPKI(in: folder, now: twoYearsAgo)
            do {
                _ = try WWDRSelection.intermediate(for: pki.leaf, among: [pki.intermediate], at: Date())
                Issue.record("an expired signer was accepted")
            } catch let error as SigningError {
                guard case let .certificateNotValid(role, _, _, notAfter, _) = error else { throw error }
                #expect(role == "signing certificate")
                #expect(notAfter == pki.leaf.notAfter)
                #expect(error.description.contains("expired on"))
            }
        }
    }

    @Test func expiredIntermediateIsRefused() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            // Re-issue the intermediate for its own key and subject, but already expired.
            let rootCA = try SigningIdentity(certificatePEM: Data(contentsOf: pki.files.rootCertificate),
                                             privateKeyPEM: Data(contentsOf: folder.appendingPathComponent("dev-ca/root-key.pem")),
                                             passphrase: nil)
            let wwdr = try SigningIdentity(certificatePEM: Data(contentsOf: pki.files.intermediate),
                                           privateKeyPEM: Data(contentsOf: folder.appendingPathComponent("dev-ca/wwdr-key.pem")),
                                           passphrase: nil)
            let expired = try Certificate(x509: CertificateBuilder.issue(
                subject: [("C", "US"), ("O", DevCertificates.organization), ("OU", "G4"), ("CN", DevCertificates.intermediateCommonName)],
                key: wwdr.privateKey, issuer: rootCA,
                notBefore: Date().addingTimeInterval(-3 * 86400), notAfter: Date().addingTimeInterval(-86400),
                extensions: [("basicConstraints", "critical,CA:TRUE"), ("subjectKeyIdentifier", "hash")]))
            #expect(expired.subjectKeyIdentifier == pki.intermediate.subjectKeyIdentifier)
            do {
                _ = try WWDRSelection.intermediate(for: pki.leaf, among: [expired], at: Date())
                Issue.record("an expired intermediate was chosen")
            } catch let error as SigningError {
                guard case let .certificateNotValid(role, _, _, notAfter, _) = error else { throw error }
                #expect(role == "WWDR intermediate")
                #expect(notAfter == expired.notAfter)
            }
            #expect(try WWDRSelection.intermediate(for: pki.leaf, among: [expired, pki.intermediate], at: Date()) == pki.intermediate)
        }
    }
}
