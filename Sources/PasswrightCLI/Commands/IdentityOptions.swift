import Foundation
import PassCompiler
import PassLint
import Signing

/// Finds the signing identity for a template in the identities folder (`--identities`, then
/// `PASSWRIGHT_IDENTITIES`, then `./Certificates`), with key passphrases from the environment only.
struct IdentityOptions: Sendable {
    static let option = CommandSpec.Option.value(
        "identities", "DIR",
        help: "Identities folder: <DIR>/<passTypeIdentifier>/ or <DIR>/<orderTypeIdentifier>/, and <DIR>/wwdr/ (default: $PASSWRIGHT_IDENTITIES or ./Certificates).")

    let directory: IdentityDirectory

    init(arguments: ParsedArguments, environment: [String: String]) {
        let path = arguments.value("identities") ?? environment["PASSWRIGHT_IDENTITIES"] ?? "Certificates"
        directory = IdentityDirectory(root: URL(fileURLWithPath: path), passphrase: { passTypeIdentifier in
            Self.passphrase(for: passTypeIdentifier, in: environment)?.value
        }, passphraseHelp: Self.passphraseHelp)
    }

    /// Where the passphrase of an encrypted key is set, for the error when none is.
    @Sendable static func passphraseHelp(for passTypeIdentifier: String) -> String {
        "\(passphraseVariable(for: passTypeIdentifier)) or PASSWRIGHT_KEY_PASSPHRASE"
    }

    /// The passphrase of `passTypeIdentifier`'s key: its own variable, then `PASSWRIGHT_KEY_PASSPHRASE`
    /// (the only one when the pass type is not known yet, as for a `.p12` still to be opened), with the
    /// variable it came from. An empty value counts as unset.
    static func passphrase(for passTypeIdentifier: String?, in environment: [String: String]) -> (variable: String, value: String)? {
        let names = (passTypeIdentifier.map { [passphraseVariable(for: $0)] } ?? []) + ["PASSWRIGHT_KEY_PASSPHRASE"]
        return names.lazy.compactMap { name in environment[name].flatMap { $0.isEmpty ? nil : (name, $0) } }.first
    }

    /// `PASSWRIGHT_KEY_PASSPHRASE_PASS_COM_EXAMPLE_LOYALTY` for `pass.com.example.loyalty`.
    static func passphraseVariable(for passTypeIdentifier: String) -> String {
        "PASSWRIGHT_KEY_PASSPHRASE_" + String(passTypeIdentifier.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// A compiler for `template` signed with its pass type's identity and the matching WWDR intermediate,
    /// after the linter's review: errors (what Wallet would refuse) stop here with the findings
    /// printed; warnings are printed and the build goes on.
    func compiler(for template: Template, options: CompileOptions, console: Console, now: Date = Date()) throws -> PassCompiler {
        let identity = try directory.identity(forPassTypeIdentifier: template.passTypeIdentifier)
        let intermediates = try directory.intermediates()
        let findings = Linter(webServiceURL: options.webServiceURL, intermediates: intermediates)
            .lint(template: template, identity: identity.certificate, now: now)
            .filter { $0.severity != .advice }
        let errors = findings.filter(\.stopsBuild).count
        guard errors == 0 else {
            throw TemplateRefused(template: template.name, errors: errors, table: LintReport.markdownTable(findings))
        }
        if !findings.isEmpty { console.err(LintReport.markdownTable(findings)) }
        let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: intermediates, at: now)
        return try PassCompiler(template: template, identity: identity, intermediate: intermediate, options: options, now: now)
    }
}

/// A template the linter found errors in, with the review table.
struct TemplateRefused: Error, CustomStringConvertible {
    let template: String
    let errors: Int
    let table: String

    var description: String {
        "template \(template) has \(errors) error\(errors == 1 ? "" : "s") Wallet would refuse; nothing was signed\n\n\(table)"
    }
}
