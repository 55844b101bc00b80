import APNs
import Foundation
import Signing

/// Every identity in the identities folder, checked as the server will use it: it loads, its
/// certificate is valid and not about to expire, Apple's WWDR intermediate for it is there, and APNs
/// accepts it (a push to a token that cannot exist: `BadDeviceToken` means the certificate was taken).
struct DoctorIdentityChecks: Sendable {
    let directory: IdentityDirectory
    let apns: APNsConfiguration
    let now: Date

    func run() async -> [DoctorFinding] {
        let passTypes: [String]
        do {
            passTypes = try directory.passTypeIdentifiers()
        } catch {
            return [DoctorFinding(check: "identities", result: .fail, detail: "\(error)",
                                  fix: "Point --identities at the folder the server uses", effect: "Passes can be signed and pushed.")]
        }
        guard !passTypes.isEmpty else {
            return [DoctorFinding(check: "identities", result: .fail, detail: "no identity in \(directory.root.path)",
                                  fix: "passwright certs import (see docs/deployment.md)", effect: "Passes can be signed and pushed.")]
        }
        var findings: [DoctorFinding] = []
        for passType in passTypes {
            findings.append(contentsOf: await check(passType))
        }
        return findings
    }

    private func check(_ passType: String) async -> [DoctorFinding] {
        let name = "identity \(passType)"
        let identity: SigningIdentity
        do {
            identity = try directory.identity(forPassTypeIdentifier: passType)
        } catch {
            return [DoctorFinding(check: name, result: .fail, detail: "\(error)", fix: "passwright certs import the certificate and key again",
                                  effect: "Passes of \(passType) can be signed and pushed.")]
        }
        let certificate = identity.certificate
        let validity = "valid until \(certificate.notAfter.formatted(.iso8601))"
        guard certificate.isValid(at: now) else {
            return [DoctorFinding(
                check: name, result: .fail, detail: "the certificate is not valid now (\(certificate.notBefore.formatted(.iso8601)) to \(certificate.notAfter.formatted(.iso8601)))",
                fix: "Renew the Pass Type ID certificate in Apple's developer portal, then passwright certs import",
                effect: "New passes install and APNs accepts the pushes; today Wallet refuses the passes and APNs the certificate.")]
        }
        var findings: [DoctorFinding] = []
        var chain: Certificate?
        do {
            let intermediate = try WWDRSelection.intermediate(for: certificate, among: try directory.intermediates(), at: now)
            chain = intermediate
            if certificate.needsRenewal(at: now) {
                findings.append(DoctorFinding(check: name, result: .warn, detail: "\(validity), chain through \(intermediate.subject)",
                                              fix: "Renew it before \(certificate.notAfter.formatted(.iso8601))", effect: "Passes keep installing past that day."))
            } else {
                findings.append(.pass(name, "\(validity), chain through \(intermediate.subject)"))
            }
        } catch {
            findings.append(DoctorFinding(check: name, result: .fail, detail: "\(error)",
                                          fix: "Put Apple's WWDR intermediate that issued it (G4 since 2022) in wwdr/",
                                          effect: "Wallet can verify the passes' signatures; today it refuses them."))
        }
        findings.append(await push(passType, identity, intermediate: chain))
        return findings
    }

    /// Presents the chain the server presents (the certificate and its WWDR intermediate), as APNs
    /// verifies it up to Apple's root.
    private func push(_ passType: String, _ identity: SigningIdentity, intermediate: Certificate?) async -> DoctorFinding {
        let name = "apns \(passType)"
        let client: APNsClient
        do {
            let pem = try identity.unsafeUnencryptedPEM()
            let chain = pem.certificate + Data((intermediate?.pem ?? "").utf8)
            client = try APNsClient(configuration: apns, credentials: APNsCredentials(certificatePEM: chain, privateKeyPEM: pem.privateKey))
        } catch {
            return DoctorFinding(check: name, result: .fail, detail: "\(error)", fix: "Check the identity", effect: "Pass updates reach phones.")
        }
        let answer: Result<APNsResponse, APNsError>
        do {
            answer = .success(try await client.send(pushToken: String(repeating: "0", count: 64), topic: passType))
        } catch {
            answer = .failure(error)
        }
        await client.shutdown()
        return finding(name, passType, answer)
    }

    private func finding(_ name: String, _ passType: String, _ answer: Result<APNsResponse, APNsError>) -> DoctorFinding {
        switch answer {
        case .success(let response):
            switch response.outcome {
            case .badDeviceToken, .unregistered, .delivered:
                return .pass(name, "\(apns.url.absoluteString) accepted the certificate (answered \(response.status) \(response.reason ?? ""))")
            case .credentialsRejected(let reason):
                return DoctorFinding(check: name, result: .fail, detail: "\(apns.url.absoluteString) refused the certificate: \(reason)",
                                     fix: "Use the Pass Type ID certificate of \(passType) (the one that signs its passes)", effect: "Pass updates reach phones.")
            default:
                return DoctorFinding(check: name, result: .warn, detail: "\(apns.url.absoluteString) answered \(response.status) \(response.reason ?? "")",
                                     fix: "Try again later", effect: "The certificate is known to work with APNs.")
            }
        case .failure(let error):
            return DoctorFinding(check: name, result: .fail, detail: error.description,
                                 fix: "Check the certificate and key, and that this host reaches \(apns.url.host ?? "APNs") on port 443",
                                 effect: "Pass updates reach phones.")
        }
    }
}
