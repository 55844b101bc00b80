import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Signing
import Testing
import WalletPackage
import ZipArchive

/// `PassVerifier` catches every way a `.pkpass` can be altered or forged, and fails cleanly on
/// archives that are not passes at all.
@Suite struct PassVerifierTests {
    static func builtPass(in folder: URL) throws -> Archive {
        try Archive(TestTemplate.compile(in: folder).archive)
    }

    static func check(_ name: String, in report: VerificationReport) -> VerificationReport.Check? {
        report.checks.first { $0.name == name }
    }

    @Test func untouchedPassVerifies() throws {
        try withTemporaryDirectory { folder in
            let bytes = try Self.builtPass(in: folder).rebuilt { _ in }
            let report = try PassVerifier.verify(archive: bytes, trustedRoots: [ThrowawayPKI.shared().root])
            #expect(report.isValid, "\(report.checks)")
            for name in ["layout", "manifest", "signature", "certificates", "chain", "pass.json", "identifiers"] {
                #expect(Self.check(name, in: report)?.outcome == .passed, "\(name): \(report.checks)")
            }
        }
    }

    @Test func tamperedPassJSONFailsTheManifest() throws {
        try withTemporaryDirectory { folder in
            let tampered = try Self.builtPass(in: folder).rebuilt { entries in
                let index = entries.firstIndex { $0.name == "pass.json" }!
                var bytes = entries[index].data
                let position = bytes.firstRange(of: Data("Passwright Tests".utf8))!.lowerBound
                bytes[position] = UInt8(ascii: "Q")
                entries[index].data = bytes
            }
            let report = try PassVerifier.verify(archive: tampered, trustedRoots: [ThrowawayPKI.shared().root])
            #expect(!report.isValid)
            let manifest = try #require(Self.check("manifest", in: report))
            #expect(manifest.outcome == .failed)
            #expect(manifest.detail.hasPrefix("pass.json has SHA-1"))
            #expect(Self.check("signature", in: report)?.outcome == .passed)
        }
    }

    @Test func unlistedFileFailsTheManifest() throws {
        try withTemporaryDirectory { folder in
            let extended = try Self.builtPass(in: folder).rebuilt { entries in
                entries.insert((name: "thumbnail.png", data: TestPNG.solid(width: 90, height: 90)), at: 1)
            }
            let report = try PassVerifier.verify(archive: extended, trustedRoots: [ThrowawayPKI.shared().root])
            #expect(!report.isValid)
            let manifest = try #require(Self.check("manifest", in: report))
            #expect(manifest.outcome == .failed)
            #expect(manifest.detail == "thumbnail.png is not listed")
        }
    }

    @Test func signatureOfAnotherIdentityFails() throws {
        try withTemporaryDirectory { folder in
            let identities = try ThrowawayPKI.shared()
            let archive = try Self.builtPass(in: folder)
            let signer = try PassSigner(identity: identities.identity(for: ThrowawayPKI.otherPassType), intermediate: identities.intermediate)
            let signature = try signer.sign(#require(archive.files["manifest.json"]), signingTime: Date())
            let forged = try archive.rebuilt { entries in
                entries[entries.firstIndex { $0.name == "signature" }!].data = signature
            }
            let report = PassVerifier.verify(archive: forged, trustedRoots: [identities.root])
            #expect(!report.isValid)
            #expect(Self.check("signature", in: report)?.outcome == .passed)
            let identifiers = try #require(Self.check("identifiers", in: report))
            #expect(identifiers.outcome == .failed)
            #expect(identifiers.detail.contains(ThrowawayPKI.otherPassType))
        }
    }

    @Test func signatureOverOtherContentFails() throws {
        try withTemporaryDirectory { folder in
            let identities = try ThrowawayPKI.shared()
            let archive = try Self.builtPass(in: folder)
            let signer = try PassSigner(identity: identities.identity(for: ThrowawayPKI.testPassType), intermediate: identities.intermediate)
            let signature = try signer.sign(Data("{\"pass.json\":\"0000000000000000000000000000000000000000\"}".utf8), signingTime: Date())
            let forged = try archive.rebuilt { entries in
                entries[entries.firstIndex { $0.name == "signature" }!].data = signature
            }
            let report = PassVerifier.verify(archive: forged, trustedRoots: [identities.root])
            #expect(!report.isValid)
            #expect(Self.check("signature", in: report)?.outcome == .failed)
        }
    }

    @Test func withoutRootsTheChainIsAWarning() throws {
        try withTemporaryDirectory { folder in
            let bytes = try TestTemplate.compile(in: folder).archive
            let report = PassVerifier.verify(archive: bytes, trustedRoots: [])
            #expect(report.isValid, "\(report.checks)")
            #expect(Self.check("chain", in: report)?.outcome == .warning)
            #expect(Self.check("signature", in: report)?.outcome == .passed)
        }
    }

    static let notPasses: [(String, @Sendable () throws -> Data)] = [
        ("garbage", { Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }) }),
        ("empty", { Data() }),
        ("zip bomb", {
            var writer = ZipWriter()
            try writer.add(path: "pass.json", data: Data(count: 8 * 1024 * 1024), compression: .deflate)
            return try writer.finish()
        }),
    ]

    @Test(arguments: notPasses.map(\.0))
    func nonPassesFailCleanly(kind: String) throws {
        let bytes = try Self.notPasses.first { $0.0 == kind }!.1()
        let report = try PassVerifier.verify(archive: bytes, trustedRoots: [ThrowawayPKI.shared().root])
        #expect(!report.isValid)
        #expect(report.checks.map(\.name) == ["archive"])
        #expect(report.checks.first?.outcome == .failed)
    }

    @Test func truncatedPassFailsCleanly() throws {
        try withTemporaryDirectory { folder in
            let bytes = try TestTemplate.compile(in: folder).archive
            let report = try PassVerifier.verify(archive: bytes.prefix(bytes.count / 2), trustedRoots: [ThrowawayPKI.shared().root])
            #expect(!report.isValid)
            #expect(report.checks.first?.name == "archive")
        }
    }
}
