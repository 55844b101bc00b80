import Foundation
import OrderModel
import OrderPackage
import PasswrightTesting
import Signing
import Testing
import ZipArchive

/// The sample order `Templates/orders/shop` and a throwaway Order Type ID identity for it, made at
/// test time with `DevCertificates` in the test's own folder (never in the shared pass PKI, whose
/// folder the pass tests list as pass types).
struct OrderFixture {
    static let orderType = "order.dev.passwright.shop"
    /// Now, to the second: `openssl cms -verify` checks the chain at the current time.
    static let signingTime = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    let source: OrderSource
    let identities: DevIdentityFiles
    let packager: OrderPackager

    init(in folder: URL) throws {
        source = try OrderSource.load(from: Repository.templates.appendingPathComponent("orders/shop", isDirectory: true))
        identities = try DevCertificates.create(in: folder.appendingPathComponent("identities", isDirectory: true), typeIdentifier: Self.orderType,
                                                kind: .order, teamIdentifier: "PASSWRIGHT", now: Self.signingTime.addingTimeInterval(-3600))
        packager = try OrderPackager(identity: Self.identity(identities), intermediate: Certificate.loadAll(from: identities.intermediate)[0])
    }

    static func identity(_ files: DevIdentityFiles) throws -> SigningIdentity {
        try SigningIdentity(certificatePEM: Data(contentsOf: files.certificate), privateKeyPEM: Data(contentsOf: files.privateKey), passphrase: nil)
    }

    var root: Certificate { get throws { try Certificate.loadAll(from: identities.rootCertificate)[0] } }
}

/// An archive's files by name, in archive order, read with `ZipReader`.
struct ArchiveFiles {
    let names: [String]
    let files: [String: Data]

    init(_ archive: Data) throws {
        let reader = try ZipReader(data: archive)
        names = reader.entries.filter { !$0.isDirectory }.map(\.name)
        var files: [String: Data] = [:]
        for name in names { files[name] = try reader.data(for: name) }
        self.files = files
    }

    /// The archive written again with `change` applied to its entries.
    func rebuilt(_ change: (inout [(name: String, data: Data)]) -> Void) throws -> Data {
        var list = names.map { (name: $0, data: files[$0]!) }
        change(&list)
        var writer = ZipWriter()
        for item in list { try writer.add(path: item.name, data: item.data, compression: .store) }
        return try writer.finish()
    }
}
