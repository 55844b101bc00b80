import Foundation
import PassCompiler
import PassModel
import Signing
import WalletPackage
import ZipArchive

/// Reviews a pass the way Wallet and a designer would: every reason Wallet refuses a pass or falls
/// back to a plainer design (errors), then what makes it harder to read, localize or keep current
/// (warnings and advice), each with the exact change and what it does for the holder.
///
/// A template is linted from its source: placeholders are unknown values (see ``LintedPass``), so
/// rules that judge a value skip them; linting records renders each one exactly as the compiler does
/// and reports what only the filled-in values reveal.
public struct Linter: Sendable {
    /// The web service URL builds will write in (`--web-service-url`), for templates that leave it out.
    public var webServiceURL: String?
    /// Apple WWDR intermediates to check the signing certificate's chain against, when known.
    public var intermediates: [Certificate]

    /// Creates a linter.
    public init(webServiceURL: String? = nil, intermediates: [Certificate] = []) {
        self.webServiceURL = webServiceURL
        self.intermediates = intermediates
    }

    /// Every finding about a template, with its signing certificate when one is given (`--identities`).
    public func lint(template: Template, identity: Certificate? = nil, now: Date) -> [Finding] {
        let files = LintFiles(template: template)
        switch LintedPass.template(template.source, webServiceURL: webServiceURL, now: now) {
        case .failure(let failure):
            return Self.undecodable(failure, record: nil)
        case .success(let subject):
            let context = LintContext(subject: subject, files: files, isTemplate: true, webServiceURL: webServiceURL, now: now)
            var findings = Self.findings(in: context)
            if let identity {
                findings += IdentityRules.findings(pass: subject.pass, certificate: identity, intermediates: intermediates, now: now)
            }
            return findings
        }
    }

    /// Only the errors that stop a build — what makes Wallet refuse the pass (``BuildPolicy``) — for a
    /// compiler that refuses to sign them. Errors Wallet accepts with a fallback are left to `lint`.
    public func errors(in template: Template, identity: Certificate? = nil, now: Date) -> [Finding] {
        lint(template: template, identity: identity, now: now).filter(\.stopsBuild)
    }

    /// What only the records reveal: records the template cannot render, values that break a rule once
    /// filled in (reported once per rule and place, naming the first record), and the same barcode
    /// message on more than one pass. Findings the template already has are not repeated.
    public func lint(template: Template, records: [JSONValue], now: Date) -> [Finding] {
        var batch = RecordBatch(linter: self, template: template, now: now)
        for (index, record) in records.enumerated() { batch.add(.success(record), name: "record \(index + 1)") }
        return batch.findings
    }

    /// ``lint(template:records:now:)`` for a CSV or JSON Lines stream, naming each record by its line.
    public func lint(template: Template, records reader: inout RecordReader, now: Date) -> [Finding] {
        var batch = RecordBatch(linter: self, template: template, now: now)
        while let record = reader.next() { batch.add(record.value, name: record.name) }
        return batch.findings
    }

    /// A finished `.pkpass`: what `PassVerifier` finds wrong (layout, manifest hashes, signature,
    /// certificates, identifiers) plus every rule on its `pass.json` and files.
    public func lint(archive: Data, now: Date) -> [Finding] {
        let report = PassVerifier.verify(archive: archive, trustedRoots: [], at: now)
        var findings = report.checks.filter { $0.outcome == .failed && $0.name != "pass.json" }.map(Self.archiveFinding)
        guard let reader = try? ZipReader(data: archive, limits: .untrusted) else { return findings }
        var files = LintFiles()
        for entry in reader.entries where !entry.isDirectory && !["pass.json", "manifest.json", "signature"].contains(entry.name) {
            if let data = try? reader.data(for: entry.name) { files.add(path: entry.name, data: data) }
        }
        guard let bytes = try? reader.data(for: "pass.json") else { return findings }
        let tree: JSONValue
        do {
            tree = try JSONValue.parse(bytes)
        } catch {
            return findings + Self.undecodable(LintFailure(error), record: nil)
        }
        switch LintedPass.rendered(tree) {
        case .failure(let failure):
            findings += Self.undecodable(failure, record: nil)
        case .success(let subject):
            findings += Self.findings(in: LintContext(subject: subject, files: files, isTemplate: false, webServiceURL: nil, now: now))
        }
        return findings
    }

    /// A template that does not load, as one finding per problem (a missing icon keeps its own rule).
    /// Load templates for linting with `requiringIcon: false`: the icon rule then runs with the rest.
    public static func findings(for loadError: PassCompilerError) -> [Finding] {
        loadError.problems.map { problem in
            if case .templateFile(let file, _) = problem, file == "icon.png" { return ImageRules.iconMissing }
            return Finding(rule: "template.invalid", severity: .error, location: "template", before: "\(problem)",
                           after: "fix the file named in the message", effect: "No pass can be built from the template until this is fixed.")
        }
    }

    /// All rules over one pass, overlapping reports merged.
    static func findings(in context: LintContext) -> [Finding] {
        let rules: [any LintRules.Type] = [
            ValidationRules.self, ColourRules.self, GlanceRules.self, LocaleRules.self,
            LifecycleRules.self, ImageRules.self, SchemeRules.self,
        ]
        let findings = rules.flatMap { $0.findings(in: context) }
        // A glance rule restates PassModel's field count at the same place in a designer's terms.
        let glance = Set(findings.filter { $0.rule.hasPrefix("glance.") }.map(\.location))
        return findings.filter { !($0.rule == "fields.count" && glance.contains($0.location)) }
    }

    /// One finding per value that does not decode.
    static func undecodable(_ failure: LintFailure, record: String?) -> [Finding] {
        failure.problems.map { problem in
            let location = "pass.json" + (problem.path.isEmpty ? "" : " \(problem.path)")
            return Finding(rule: "pass.decoding", severity: .error, location: record.map { "\($0): \(location)" } ?? location,
                           before: problem.message, after: "a value of the type Apple's Wallet Passes documentation (PassKit › Pass) gives this key",
                           effect: Finding.refusedEffect)
        }
    }

    private static func archiveFinding(_ check: VerificationReport.Check) -> Finding {
        let fixes = [
            "layout": "only files at the root and in <lang>.lproj/, including icon.png",
            "manifest": "rebuild the archive so manifest.json lists the SHA-1 of every file's exact bytes",
            "signature": "sign manifest.json again: detached CMS, DER, with signingTime",
            "certificates": "embed the signer and the Apple WWDR intermediate in the signature",
            "identifiers": "sign with the certificate of the pass's passTypeIdentifier and teamIdentifier",
            "certificate": "sign with a valid Pass Type ID certificate",
        ]
        return Finding(rule: "archive.\(check.name)", severity: .error, location: check.name == "identifiers" || check.name == "certificate" ? "signature" : check.name,
                       before: check.detail, after: fixes[check.name] ?? "rebuild the pass with passwright build",
                       effect: Finding.refusedEffect)
    }
}
