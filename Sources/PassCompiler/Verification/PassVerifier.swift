import Foundation
import PassModel
import Signing
import ZipArchive

/// Checks a `.pkpass` the way Wallet would before accepting it: archive layout, every manifest hash,
/// the CMS signature and its chain, the signer ↔ pass identifiers, and `pass.json` itself.
///
/// Archives come from anywhere, so reading is bounded by `ZipLimits.untrusted` (entry count, sizes,
/// compression ratio) before anything is decompressed.
public enum PassVerifier {
    /// Verifies `archive`. `trustedRoots` are the CA certificates the chain must reach (Apple's root in
    /// production, the dev root in tests); when empty, the signature is checked but the chain is not.
    public static func verify(archive: Data, trustedRoots: [Certificate], at now: Date = Date()) -> VerificationReport {
        var report = VerificationReport()
        let reader: ZipReader
        do {
            reader = try ZipReader(data: archive, limits: .untrusted)
        } catch {
            report.fail("archive", "not a readable zip archive: \(error)")
            return report
        }
        let files = reader.entries.filter { !$0.isDirectory }.map(\.name)
        checkLayout(files, into: &report)

        guard let manifestBytes = read("manifest.json", from: reader, into: &report),
              let signature = read("signature", from: reader, into: &report),
              let passJSON = read("pass.json", from: reader, into: &report) else { return report }
        checkManifest(manifestBytes, files: files, reader: reader, into: &report)

        var signer: Certificate?
        do {
            let verified = try SignatureVerification.verify(signature: signature, content: manifestBytes, trustedRoots: trustedRoots, at: now)
            signer = verified.signer
            let time = verified.signingTime.map { "signed \(Self.timestamp($0))" } ?? "no signing time"
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
        } catch {
            report.fail("signature", "\(error)")
        }
        checkPass(passJSON, signer: signer, now: now, into: &report)
        return report
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

    private static func checkLayout(_ files: [String], into report: inout VerificationReport) {
        var problems: [String] = []
        for name in files {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.contains(where: { TemplateFolder.isJunk(String($0)) }) {
                problems.append("\(name) is junk that should not be packaged")
            } else if parts.count > 2 || (parts.count == 2 && !TemplateFolder.isLocalizationFolder(String(parts[0]))) {
                problems.append("\(name) is in a folder; only files at the root and in <lang>.lproj/ are allowed")
            }
        }
        if !files.contains(where: { ImageName(fileName: String($0.split(separator: "/").last ?? ""))?.slot == "icon" }) {
            problems.append("no icon.png: Wallet cannot add a pass without an icon")
        }
        if problems.isEmpty {
            report.pass("layout", "\(files.count) files at the root and in .lproj folders, icon present")
        } else {
            report.fail("layout", problems.joined(separator: "; "))
        }
    }

    private static func checkManifest(_ bytes: Data, files: [String], reader: ZipReader, into report: inout VerificationReport) {
        let manifest: Manifest
        do {
            manifest = try Manifest(bytes: bytes)
        } catch {
            report.fail("manifest", "\(error)")
            return
        }
        var problems: [String] = []
        let listed = Set(manifest.hashes.keys)
        let packaged = Set(files).subtracting(["manifest.json", "signature"])
        for name in packaged.subtracting(listed).sorted() { problems.append("\(name) is not listed") }
        for name in listed.subtracting(packaged).sorted() { problems.append("\(name) is listed but not in the archive") }
        for name in listed.intersection(packaged).sorted() {
            guard let data = try? reader.data(for: name) else {
                problems.append("\(name) cannot be read")
                continue
            }
            let actual = Digest.sha1Hex(data)
            if actual != manifest.hashes[name] { problems.append("\(name) has SHA-1 \(actual) but the manifest says \(manifest.hashes[name]!)") }
        }
        if problems.isEmpty {
            report.pass("manifest", "all \(listed.count) SHA-1 hashes match and every file is listed")
        } else {
            report.fail("manifest", problems.joined(separator: "; "))
        }
    }

    private static func checkPass(_ bytes: Data, signer: Certificate?, now: Date, into report: inout VerificationReport) {
        let pass: Pass
        var issues: [ValidationIssue]
        do {
            (pass, issues) = try Pass.decode(bytes)
        } catch {
            report.fail("pass.json", "\(error)")
            return
        }
        // What Wallet accepts with a fallback is a warning here too, as in a build: a pass `build` makes
        // must verify (the lint review still lists those as errors).
        issues = (issues + pass.validate()).map(BuildPolicy.forBuild)
        let errors = issues.filter { $0.severity == .error }
        if errors.isEmpty {
            report.pass("pass.json", "valid \(pass.style?.key ?? "pass") \(pass.serialNumber)")
        } else {
            report.fail("pass.json", errors.map(\.description).joined(separator: "; "))
        }
        for warning in issues where warning.severity != .error {
            report.warn("pass.json", warning.description)
        }
        guard let signer else { return }
        if signer.passTypeIdentifier == pass.passTypeIdentifier && signer.teamIdentifier == pass.teamIdentifier {
            report.pass("identifiers", "pass type \(pass.passTypeIdentifier) and team \(pass.teamIdentifier) match the signing certificate")
        } else {
            report.fail("identifiers", "pass.json says \(pass.passTypeIdentifier) / team \(pass.teamIdentifier) but the certificate is for \(signer.passTypeIdentifier ?? "?") / team \(signer.teamIdentifier ?? "?")")
        }
        if !signer.isValid(at: now) {
            report.fail("certificate", "the signing certificate is not valid now (valid \(timestamp(signer.notBefore)) to \(timestamp(signer.notAfter)))")
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
