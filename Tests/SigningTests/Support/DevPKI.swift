import Foundation
@testable import Signing

/// A development PKI written into a temporary folder, with the loaded pieces tests need.
struct DevPKI {
    static let passType = "pass.dev.passwright.test"
    static let team = "TEAM123456"

    let root: URL
    let files: DevIdentityFiles
    let rootCertificate: Certificate
    let intermediate: Certificate
    let leaf: Certificate

    init(in root: URL, passType: String = DevPKI.passType, team: String = DevPKI.team, now: Date = Date()) throws {
        self.root = root
        files = try DevCertificates.create(in: root, passTypeIdentifier: passType, teamIdentifier: team, now: now)
        rootCertificate = try Certificate.loadAll(from: files.rootCertificate)[0]
        intermediate = try Certificate.loadAll(from: files.intermediate)[0]
        leaf = try Certificate.loadAll(from: files.certificate)[0]
    }

    /// The identity in the plain PEM files.
    func identity() throws -> SigningIdentity {
        try SigningIdentity(certificatePEM: Data(contentsOf: files.certificate),
                            privateKeyPEM: Data(contentsOf: files.privateKey), passphrase: nil)
    }

    func signer() throws -> PassSigner {
        try PassSigner(identity: identity(), intermediate: intermediate)
    }
}
