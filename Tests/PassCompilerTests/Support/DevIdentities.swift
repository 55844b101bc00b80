import Foundation
import Signing
import Testing

/// One development PKI per test process: a root, an intermediate and a Pass Type ID identity for
/// every pass type the tests sign (RSA key generation is slow, so it is made once and shared), in the
/// `IdentityDirectory` layout under a temporary folder removed when the process exits.
struct DevIdentities: Sendable {
    static let team = "PASSWRIGHT"
    /// The pass type of the templates the tests build themselves.
    static let testPassType = "pass.dev.passwright.test"
    /// A second identity under the same root, for mismatches and foreign signatures.
    static let otherPassType = "pass.dev.passwright.other"
    /// The sample templates in `Templates/`.
    static let sampleTemplates = ["loyalty", "concert", "boarding", "coupon", "membership", "poster-event"]
    static let passTypes = [testPassType, otherPassType] + sampleTemplates.map { "pass.dev.passwright.\($0)" }

    let folder: URL
    let files: [String: DevIdentityFiles]
    let root: Certificate
    let intermediate: Certificate

    /// The shared identities, created on first use.
    static func shared() throws -> DevIdentities { try cached.get() }

    private static let cached = Result { try DevIdentities(folder: devIdentitiesFolder) }

    private init(folder: URL) throws {
        self.folder = folder
        atexit(removeDevIdentities)
        let now = Date()
        var files: [String: DevIdentityFiles] = [:]
        for passType in Self.passTypes {
            files[passType] = try DevCertificates.create(in: folder, passTypeIdentifier: passType, teamIdentifier: Self.team, now: now)
        }
        self.files = files
        let any = files[Self.testPassType]!
        root = try Certificate.loadAll(from: any.rootCertificate)[0]
        intermediate = try Certificate.loadAll(from: any.intermediate)[0]
    }

    /// The dev root CA file, for `openssl -CAfile`.
    var rootFile: URL { files[Self.testPassType]!.rootCertificate }

    /// The identity of `passType`, read from its plain PEM files.
    func identity(for passType: String) throws -> SigningIdentity {
        let files = try #require(files[passType], "no dev identity for \(passType)")
        return try SigningIdentity(certificatePEM: Data(contentsOf: files.certificate),
                                   privateKeyPEM: Data(contentsOf: files.privateKey), passphrase: nil)
    }
}

private let devIdentitiesFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("passwright-compiler-identities-\(UUID().uuidString)", isDirectory: true)

/// `atexit` handler (a global function, as C callbacks must be): the keys never outlive the run.
private func removeDevIdentities() {
    try? FileManager.default.removeItem(at: devIdentitiesFolder)
}
