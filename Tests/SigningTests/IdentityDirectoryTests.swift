import Foundation
import PasswrightTesting
import Testing
import Signing

@Suite struct IdentityDirectoryTests {
    @Test func listsPassTypesAndReadsPEMAndDERIntermediates() throws {
        try withTemporaryDirectory { folder in
            let first = try DevPKI(in: folder)
            _ = try DevPKI(in: folder, passType: "pass.dev.passwright.other")
            let directory = IdentityDirectory(root: folder) { _ in nil }
            #expect(try directory.passTypeIdentifiers() == [DevPKI.passType, "pass.dev.passwright.other"].sorted())

            let der = folder.appendingPathComponent("wwdr/AppleWWDRCAG4.cer")
            let converted = try OpenSSL.run(["x509", "-in", first.files.rootCertificate.path, "-outform", "DER", "-out", der.path])
            #expect(converted.succeeded, "\(converted.error)")
            #expect(Set(try directory.intermediates()) == [first.intermediate, first.rootCertificate])
        }
    }

    @Test func flagsKeysReadableByOthers() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let directory = IdentityDirectory(root: folder) { _ in nil }
            #expect(directory.looseKeyPermissions().isEmpty)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pki.files.privateKey.path)
            #expect(directory.looseKeyPermissions().map(\.lastPathComponent) == ["private-key.pem"])
        }
    }

    @Test func missingPiecesAreNamedWithTheirFolder() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let directory = IdentityDirectory(root: folder) { _ in nil }
            try FileManager.default.removeItem(at: pki.files.privateKey)
            do {
                _ = try directory.identity(forPassTypeIdentifier: DevPKI.passType)
                Issue.record("an identity without a key loaded")
            } catch let SigningError.incompleteIdentity(path, missing) {
                #expect(path.hasSuffix(DevPKI.passType))
                #expect(missing.contains("private-key.pem"))
            }
            do {
                _ = try directory.identity(forPassTypeIdentifier: "pass.unknown")
                Issue.record("an unknown pass type loaded")
            } catch let SigningError.fileAccess(path, _, _) {
                #expect(path.hasSuffix("pass.unknown"))
            }
        }
    }

    @Test func refusesACertificateFiledUnderAnotherPassType() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let misplaced = folder.appendingPathComponent("pass.dev.passwright.misplaced")
            try FileManager.default.copyItem(at: pki.files.certificate.deletingLastPathComponent(), to: misplaced)
            do {
                _ = try IdentityDirectory(root: folder) { _ in nil }.identity(forPassTypeIdentifier: "pass.dev.passwright.misplaced")
                Issue.record("a misplaced identity loaded")
            } catch let SigningError.identityMismatch(_, found) {
                #expect(found == DevPKI.passType)
            }
        }
    }

    /// The server, `doctor` and the expiry check list identities with `passTypeIdentifiers()` and load
    /// each as a pass type: an Order Type ID identity beside them must not be among them. The kind
    /// comes from the certificate, so a folder name without Apple's `order.` prefix is still an order.
    @Test func listsEachIdentityUnderItsKind() throws {
        try withTemporaryDirectory { folder in
            _ = try DevPKI(in: folder)
            for order in ["order.dev.passwright.shop", "shop-orders"] {
                _ = try DevCertificates.create(in: folder, typeIdentifier: order, kind: .order, teamIdentifier: DevPKI.team, now: Date())
            }
            let directory = IdentityDirectory(root: folder) { _ in nil }
            #expect(try directory.passTypeIdentifiers() == [DevPKI.passType])
            #expect(try directory.orderTypeIdentifiers() == ["order.dev.passwright.shop", "shop-orders"])
            for passType in try directory.passTypeIdentifiers() {
                #expect(try directory.identity(forPassTypeIdentifier: passType).certificate.passTypeIdentifier == passType)
            }
            for orderType in try directory.orderTypeIdentifiers() {
                #expect(try directory.identity(forOrderTypeIdentifier: orderType).certificate.orderTypeIdentifier == orderType)
            }
        }
    }
}
