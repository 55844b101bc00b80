import Foundation
import Signing
import ZipArchive

/// The checks every signed Wallet document gets before its payload is judged: archive layout,
/// every manifest hash (the kind's hash), nothing unlisted, the CMS signature over `manifest.json`,
/// its embedded certificates and its chain. `PassVerifier` and `OrderVerifier` add their payload's.
///
/// Archives come from anywhere, so reading is bounded by `ZipLimits.untrusted` (entry count, sizes,
/// compression ratio) before anything is decompressed.
public enum WalletDocumentVerifier {
    /// What the shared checks read, for the kind's own checks.
    public struct Contents: Sendable {
        /// The payload's bytes (`pass.json`, `order.json`).
        public let payload: Data
        /// The certificate that signed, when the signature verified.
        public let signer: Certificate?
        /// Every file in the archive (no directory entries).
        public let files: [String]
    }

    /// Runs the shared checks on `archive` into `report`; returns what they read, or `nil` when the
    /// archive, its manifest, its signature or its payload cannot be read (the report says which).
    ///
    /// - Parameter trustedRoots: the CA certificates the chain must reach (Apple's root in
    ///   production, the dev root in tests); when empty, the signature is checked but not the chain.
    /// - Parameter layout: the kind's own layout problems (a pass needs an icon) and a note for the
    ///   passing line (`", icon present"`).
    public static func verify(
        archive: Data, kind: WalletDocumentKind, trustedRoots: [Certificate], at now: Date,
        layout: (_ files: [String]) -> (problems: [String], note: String), into report: inout VerificationReport
    ) -> Contents? {
        let reader: ZipReader
        do {
            reader = try ZipReader(data: archive, limits: .untrusted)
        } catch {
            report.fail("archive", "not a readable zip archive: \(error)")
            return nil
        }
        if let limit = kind.maximumArchiveSize, archive.count >= limit {
            report.fail("size", "the archive is \(archive.count) bytes; Wallet needs it below \(limit) bytes")
        }
        let files = reader.entries.filter { !$0.isDirectory }.map(\.name)
        checkLayout(files, kindProblems: layout(files), into: &report)

        guard let manifestBytes = read("manifest.json", from: reader, into: &report),
              let signature = read("signature", from: reader, into: &report),
              let payload = read(kind.payloadFile, from: reader, into: &report) else { return nil }
        checkManifest(manifestBytes, hash: kind.manifestHash, files: files, reader: reader, into: &report)
        let signer = checkSignature(signature, over: manifestBytes, trustedRoots: trustedRoots, at: now, into: &report)
        return Contents(payload: payload, signer: signer, files: files)
    }

    private static func read(_ name: String, from reader: ZipReader, into report: inout VerificationReport) -> Data? {
        guard reader.contains(name) else {
            report.fail(name, "missing from the archive")
            return nil
        }
        do {
            return try reader.data(for: name)
        } catch {
            report.fail(name, "cannot be read: \(error)")
            return nil
        }
    }

    private static func checkLayout(_ files: [String], kindProblems: (problems: [String], note: String), into report: inout VerificationReport) {
        var problems: [String] = []
        for name in files {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.contains(where: { DocumentFolder.isJunk(String($0)) }) {
                problems.append("\(name) is junk that should not be packaged")
            } else if parts.count > 2 || (parts.count == 2 && !DocumentFolder.isLocalizationFolder(String(parts[0]))) {
                problems.append("\(name) is in a folder; only files at the root and in <lang>.lproj/ are allowed")
            }
        }
        problems += kindProblems.problems
        if problems.isEmpty {
            report.pass("layout", "\(files.count) files at the root and in .lproj folders\(kindProblems.note)")
        } else {
            report.fail("layout", problems.joined(separator: "; "))
        }
    }

    private static func checkManifest(_ bytes: Data, hash: ManifestHash, files: [String], reader: ZipReader, into report: inout VerificationReport) {
        let manifest: Manifest
        do {
            manifest = try Manifest(bytes: bytes, hash: hash)
        } catch {
            report.fail("manifest", "\(error)")
            return
        }
        var problems: [String] = []
        let listed = Set(manifest.hashes.keys)
        let packaged = Set(files).subtracting(WalletDocumentKind.signatureFiles)
        for name in packaged.subtracting(listed).sorted() { problems.append("\(name) is not listed") }
        for name in listed.subtracting(packaged).sorted() { problems.append("\(name) is listed but not in the archive") }
        for name in listed.intersection(packaged).sorted() {
            guard let data = try? reader.data(for: name) else {
                problems.append("\(name) cannot be read")
                continue
            }
            let actual = hash.hex(data)
            if actual != manifest.hashes[name] { problems.append("\(name) has \(hash.name) \(actual) but the manifest says \(manifest.hashes[name]!)") }
        }
        if problems.isEmpty {
            report.pass("manifest", "all \(listed.count) \(hash.name) hashes match and every file is listed")
        } else {
            report.fail("manifest", problems.joined(separator: "; "))
        }
    }

    private static func checkSignature(_ signature: Data, over manifest: Data, trustedRoots: [Certificate], at now: Date, into report: inout VerificationReport) -> Certificate? {
        do {
            let verified = try SignatureVerification.verify(signature: signature, content: manifest, trustedRoots: trustedRoots, at: now)
            let time = verified.signingTime.map { "signed \($0.formatted(.iso8601))" } ?? "no signing time"
            report.pass("signature", "detached CMS over manifest.json verifies (\(verified.digestAlgorithm), \(time), signer \(verified.signer.subject))")
            if verified.certificates.count < 2 {
                report.fail("certificates", "the signature carries \(verified.certificates.count) certificate; Wallet needs the signer and the WWDR intermediate")
            } else {
                report.pass("certificates", "\(verified.certificates.count) certificates embedded (signer + intermediate)")
            }
            if trustedRoots.isEmpty {
                report.warn("chain", "not checked: give the root CA (--ca) to verify the chain")
            } else if verified.chainVerified {
                report.pass("chain", "the signer chains to a trusted root")
            }
            return verified.signer
        } catch {
            report.fail("signature", "\(error)")
            return nil
        }
    }
}
