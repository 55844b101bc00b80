import Foundation
import Signing

/// One development PKI per test process, made at test time with the project's own
/// `DevCertificates`: a root, the intermediate and a Pass Type ID identity (team `PASSWRIGHT`) for
/// every pass type the tests sign and an Order Type ID identity for the sample order, in the `IdentityDirectory` layout (`<folder>/<pass type>/`).
///
/// RSA key generation is slow, so it is made once and shared; its folder is removed when the process
/// exits, so the keys never outlive the run. Never a fixture file: no key is ever committed.
public struct ThrowawayPKI: Sendable {
    /// The team identifier of every identity.
    public static let team = "PASSWRIGHT"
    /// The pass type of the templates the tests build themselves.
    public static let testPassType = "pass.dev.passwright.test"
    /// A second identity under the same root, for mismatches and foreign signatures.
    public static let otherPassType = "pass.dev.passwright.other"
    /// The sample templates in `Templates/`, each signing for `pass.dev.passwright.<name>`.
    public static let sampleTemplates = ["loyalty", "concert", "boarding", "coupon", "membership", "poster-event"]
    /// Every pass type with an identity.
    public static let passTypes = [testPassType, otherPassType] + sampleTemplates.map { "pass.dev.passwright.\($0)" }
    /// The order type of the sample order template `Templates/orders/shop` (an Order Type ID identity).
    public static let orderType = "order.dev.passwright.shop"

    /// The identities folder (`--identities`, `IdentityDirectory(root:)`).
    public let folder: URL
    /// Each pass type's files.
    public let files: [String: DevIdentityFiles]
    /// The dev root CA certificate.
    public let root: Certificate
    /// The intermediate (the stand-in for Apple's WWDR certificate) every identity chains through.
    public let intermediate: Certificate

    /// The shared PKI, made on first use.
    public static func shared() throws -> ThrowawayPKI { try cached.get() }

    private static let cached = Result { try ThrowawayPKI(folder: throwawayPKIFolder) }

    private init(folder: URL) throws {
        self.folder = folder
        atexit(removeThrowawayPKI)
        let now = Date()
        var files: [String: DevIdentityFiles] = [:]
        for passType in Self.passTypes {
            files[passType] = try DevCertificates.create(in: folder, passTypeIdentifier: passType, teamIdentifier: Self.team, now: now)
        }
        files[Self.orderType] = try DevCertificates.create(in: folder, typeIdentifier: Self.orderType, kind: .order, teamIdentifier: Self.team, now: now)
        self.files = files
        let any = try files[Self.testPassType].orThrow("no test identity")
        root = try Certificate.loadAll(from: any.rootCertificate)[0]
        intermediate = try Certificate.loadAll(from: any.intermediate)[0]
    }

    /// The dev root CA file, for `openssl -CAfile`, `verify --ca` and a TLS client's trust.
    public var rootCA: URL { files[Self.testPassType]!.rootCertificate }

    /// The dev root CA's private key, to issue more certificates (a stand-in's TLS server certificate).
    public var rootKey: URL { rootCA.deletingLastPathComponent().appendingPathComponent("root-key.pem") }

    /// The identity of `passType`, read from its plain PEM files.
    public func identity(for passType: String) throws -> SigningIdentity {
        let files = try files[passType].orThrow("no dev identity for \(passType)")
        return try SigningIdentity(certificatePEM: Data(contentsOf: files.certificate),
                                   privateKeyPEM: Data(contentsOf: files.privateKey), passphrase: nil)
    }
}

private let throwawayPKIFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("passwright-test-identities-\(UUID().uuidString)", isDirectory: true)

/// `atexit` handler (a global function, as C callbacks must be).
private func removeThrowawayPKI() {
    try? FileManager.default.removeItem(at: throwawayPKIFolder)
}
