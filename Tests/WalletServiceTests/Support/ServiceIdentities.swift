import Foundation
import Signing

/// One development identities folder per test process (RSA key generation is slow, so every test
/// shares it): a root, the intermediate and a Pass Type ID identity for each sample template's pass
/// type, `pass.dev.passwright.<name>` of team PASSWRIGHT, removed when the process exits.
struct ServiceIdentities: Sendable {
    static let team = "PASSWRIGHT"

    let folder: URL
    /// The dev root CA, for `openssl -CAfile`.
    let rootCA: URL

    static func shared() throws -> ServiceIdentities { try cached.get() }

    private static let cached = Result {
        atexit(removeServiceIdentities)
        var root: URL?
        let now = Date()
        for name in Samples.templateNames {
            root = try DevCertificates.create(in: identitiesFolder, passTypeIdentifier: "pass.dev.passwright.\(name)", teamIdentifier: team, now: now).rootCertificate
        }
        return ServiceIdentities(folder: identitiesFolder, rootCA: try root.orThrow("no sample templates"))
    }
}

private let identitiesFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("passwright-service-identities-\(UUID().uuidString)", isDirectory: true)

/// `atexit` handler (a global function, as C callbacks must be): the keys never outlive the run.
private func removeServiceIdentities() {
    try? FileManager.default.removeItem(at: identitiesFolder)
}

/// The repository's sample templates (`Templates/<name>/`) and records (`Templates/samples/<name>.json`).
enum Samples {
    /// The package root, three folders above this file (`Tests/WalletServiceTests/Support/`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templatesFolder = packageRoot.appendingPathComponent("Templates", isDirectory: true)
    static let templateNames = ["loyalty", "concert", "boarding", "coupon", "membership", "poster-event"]

    /// A template's sample record.
    static func record(_ template: String) throws -> JSON {
        try JSON(parsing: Data(contentsOf: templatesFolder.appendingPathComponent("samples/\(template).json")))
    }

    /// A sample record with its `authenticationToken` chosen, so a test can act as the device.
    static func record(_ template: String, authenticationToken: String) throws -> JSON {
        var record = try record(template)
        record["authenticationToken"] = .string(authenticationToken)
        return record
    }
}
