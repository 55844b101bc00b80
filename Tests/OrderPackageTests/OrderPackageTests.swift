import Foundation
import OrderModel
import OrderPackage
import PassModel
import PasswrightTesting
import Signing
import Testing
import WalletPackage

/// The sample shop order becomes a signed `.order` that tools sharing no code with Passwright accept
/// (`unzip`-free reading aside: `openssl cms -verify` and `openssl dgst -sha256`), that reads back into
/// the same `Order`, and whose tampering the verifier names.
@Suite struct OrderPackageTests {
    @Test func sampleOrderBuildsSignsAndReadsBack() throws {
        try withTemporaryDirectory { folder in
            let fixture = try OrderFixture(in: folder)
            #expect(Set(fixture.source.files.keys) == ["logo.png", "shoes.png", "socks.png"])
            let compiled = try fixture.packager.package(fixture.source.order, files: fixture.source.files, at: OrderFixture.signingTime)
            let archive = try ArchiveFiles(compiled.archive)
            #expect(archive.names == ["logo.png", "shoes.png", "socks.png", "order.json", "manifest.json", "signature"])
            #expect(archive.files["manifest.json"] == compiled.manifest)

            // Extracted and checked with the openssl CLI: SHA-256 of every file, then the detached CMS signature.
            let extracted = folder.appendingPathComponent("extracted", isDirectory: true)
            try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
            for (name, bytes) in archive.files { try bytes.write(to: extracted.appendingPathComponent(name)) }
            let manifest = try #require(JSONSerialization.jsonObject(with: compiled.manifest) as? [String: String])
            #expect(Set(manifest.keys) == Set(archive.names).subtracting(["manifest.json", "signature"]))
            let names = manifest.keys.sorted()
            let digests = try OpenSSL.require(["dgst", "-sha256", "-r"] + names.map { extracted.appendingPathComponent($0).path })
            let lines = digests.output.split(separator: "\n")
            #expect(lines.count == names.count)
            for (name, line) in zip(names, lines) {
                #expect(manifest[name]?.count == 64)
                #expect(line.hasPrefix(manifest[name]! + " "), "SHA-256 of \(name) differs from the manifest: \(line)")
            }
            let verify = try OpenSSL.run([
                "cms", "-verify", "-binary", "-inform", "DER",
                "-in", extracted.appendingPathComponent("signature").path,
                "-content", extracted.appendingPathComponent("manifest.json").path,
                "-CAfile", fixture.identities.rootCertificate.path, "-purpose", "any", "-out", "/dev/null",
            ])
            #expect(verify.succeeded, "openssl cms -verify failed: \(verify.error)")
            #expect(verify.error.contains("Verification successful"))

            let report = OrderVerifier.verify(archive: compiled.archive, trustedRoots: [try fixture.root], at: OrderFixture.signingTime)
            #expect(report.isValid, "\(report.checks)")
            for check in ["layout", "manifest", "signature", "certificates", "chain", "order.json", "identifiers"] {
                #expect(report.checks.contains { $0.name == check && $0.outcome == .passed }, "\(check): \(report.checks)")
            }
            let (readBack, _) = try Order.decode(#require(archive.files["order.json"]))
            #expect(readBack == fixture.source.order)
            #expect(archive.files["order.json"] == fixture.source.order.encoded())
        }
    }

    @Test(arguments: ["tampered", "extra", "missing"])
    func changedArchiveIsRefusedNamingTheFile(change: String) throws {
        try withTemporaryDirectory { folder in
            let fixture = try OrderFixture(in: folder)
            let compiled = try fixture.packager.package(fixture.source.order, files: fixture.source.files, at: OrderFixture.signingTime)
            let changed = try ArchiveFiles(compiled.archive).rebuilt { entries in
                switch change {
                case "tampered": entries[entries.firstIndex { $0.name == "shoes.png" }!].data.append(0)
                case "extra": entries.insert((name: "extra.png", data: TestPNG.make(width: 4, height: 4)), at: 1)
                default: entries.removeAll { $0.name == "socks.png" }
                }
            }
            let report = OrderVerifier.verify(archive: changed, trustedRoots: [try fixture.root], at: OrderFixture.signingTime)
            #expect(!report.isValid)
            let manifest = try #require(report.checks.first { $0.name == "manifest" })
            #expect(manifest.outcome == .failed)
            let expected = ["tampered": "shoes.png has SHA-256", "extra": "extra.png is not listed", "missing": "socks.png is listed but not in the archive"][change]!
            #expect(manifest.detail.contains(expected), "\(manifest.detail)")
        }
    }

    @Test func missingReferencedImageIsABuildErrorNamingThePath() throws {
        try withTemporaryDirectory { folder in
            let fixture = try OrderFixture(in: folder)
            var files = fixture.source.files
            files["socks.png"] = nil
            files["logo.png"] = nil
            files["de.lproj/logo.png"] = TestPNG.make(width: 4, height: 4)
            files["notes/readme.txt"] = Data("x".utf8)
            #expect {
                try fixture.packager.package(fixture.source.order, files: files, at: OrderFixture.signingTime)
            } throws: { error in
                guard case OrderPackageError.invalidOrder(let issues) = error else { return false }
                let errors = issues.filter { $0.severity == .error }
                // A localized logo satisfies merchant.logo; the socks image and the stray folder do not.
                return errors.count == 2
                    && errors.contains { $0.path == "lineItems[1].image" && $0.message.contains("socks.png") }
                    && errors.contains { $0.path == "notes/readme.txt" }
            }
        }
    }

    @Test func modelErrorsStopTheBuildAllAtOnce() throws {
        try withTemporaryDirectory { folder in
            let fixture = try OrderFixture(in: folder)
            var order = fixture.source.order
            order.schemaVersion = 2
            order.authenticationToken = "short"
            #expect {
                try fixture.packager.package(order, files: fixture.source.files, at: OrderFixture.signingTime)
            } throws: { error in
                guard case OrderPackageError.invalidOrder(let issues) = error else { return false }
                return issues.filter { $0.severity == .error }.count >= 2
            }
        }
    }

    @Test func passCertificateCannotSignAnOrder() throws {
        try withTemporaryDirectory { folder in
            let fixture = try OrderFixture(in: folder)
            let passFiles = try DevCertificates.create(in: folder.appendingPathComponent("pass-identities"), passTypeIdentifier: OrderFixture.orderType,
                                                       teamIdentifier: "PASSWRIGHT", now: OrderFixture.signingTime.addingTimeInterval(-60))
            let passCertificate = try Certificate.loadAll(from: passFiles.certificate)[0]
            #expect(passCertificate.orderTypeIdentifier == nil)
            #expect(passCertificate.passTypeIdentifier == OrderFixture.orderType)
            let orderCertificate = try OrderFixture.identity(fixture.identities).certificate
            #expect(orderCertificate.orderTypeIdentifier == OrderFixture.orderType)
            #expect(orderCertificate.passTypeIdentifier == nil)
            #expect(orderCertificate.subject.contains("Order Type ID: \(OrderFixture.orderType)"))

            let packager = try OrderPackager(identity: OrderFixture.identity(passFiles), intermediate: Certificate.loadAll(from: passFiles.intermediate)[0])
            #expect {
                try packager.package(fixture.source.order, files: fixture.source.files, at: OrderFixture.signingTime)
            } throws: { error in
                guard case OrderPackageError.identityMismatch(let message) = error else { return false }
                return message.contains(OrderFixture.orderType)
            }
        }
    }

    @Test func orderManifestMustBeSHA256() throws {
        let sha1 = Data(#"{"order.json":"\#(String(repeating: "a", count: 40))"}"#.utf8)
        #expect(throws: WalletPackageError.self) { try Manifest(bytes: sha1, hash: .sha256) }
        let sha256 = Data(#"{"order.json":"\#(String(repeating: "a", count: 64))"}"#.utf8)
        #expect(try Manifest(bytes: sha256, hash: .sha256).hashes.count == 1)
    }
}
