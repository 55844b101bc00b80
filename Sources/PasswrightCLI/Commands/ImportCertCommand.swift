import Foundation
import Signing

/// `passwright certs import`: what Apple's portal or Keychain gives, made into a checked identity folder.
struct ImportCertCommand: Subcommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Check a Pass Type ID or Order Type ID certificate (.cer, .pem or .p12) and write the identity folder the server uses.",
        discussion: """
        Checks that it is a Pass Type ID (or, for Wallet orders, Order Type ID) certificate, valid now, that the private key belongs to it and that
        a WWDR intermediate issued it, then writes <out>/<pass-type-id>/certificate.pem and private-key.pem
        (mode 0600) and, if new, the intermediate into <out>/wwdr/. Without --key, <pass-type-id>.key.pem
        (what 'certs request' wrote) is looked for beside FILE and in the current folder.
        Passphrases come from the environment only: a .p12's from PASSWRIGHT_KEY_PASSPHRASE, a key's from
        PASSWRIGHT_KEY_PASSPHRASE_<ID> or PASSWRIGHT_KEY_PASSPHRASE. The written key is encrypted with it.
        """,
        arguments: [CommandSpec.Argument(name: "FILE", help: "The certificate: DER .cer from Apple's portal, PEM, or a Keychain .p12.")],
        options: [
            .value("key", "KEY", help: "The private key (PEM) when FILE holds none."),
            .value("wwdr", "FILE", help: "An Apple WWDR intermediate to choose from, e.g. AppleWWDRCAG4.cer (copied to <out>/wwdr/ if it matches)."),
            .value("out", "DIR", help: "Identities folder (default: $PASSWRIGHT_IDENTITIES or ./Certificates)."),
        ])

    let job: IdentityImport

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        let out = URL(fileURLWithPath: arguments.value("out") ?? environment["PASSWRIGHT_IDENTITIES"] ?? "Certificates")
        var job = IdentityImport(file: URL(fileURLWithPath: arguments.positional(0)!), identities: out, now: Date()) { passType in
            IdentityOptions.passphrase(for: passType, in: environment)?.value
        }
        job.key = arguments.value("key").map { URL(fileURLWithPath: $0) }
        job.intermediates = arguments.value("wwdr").map { [URL(fileURLWithPath: $0)] } ?? []
        job.keySearchFolders = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        self.job = job
    }

    func run(console: Console) async throws -> ExitStatus {
        let imported: ImportedIdentity
        do {
            imported = try job.run()
        } catch let error as SigningError {
            throw PassphraseHint(error: error)
        }
        let certificate = imported.certificate
        let passType = certificate.passTypeIdentifier ?? certificate.orderTypeIdentifier ?? ""
        let key = imported.keyEncrypted
            ? "encrypted; serve with \(IdentityOptions.passphraseVariable(for: passType)) or PASSWRIGHT_KEY_PASSPHRASE set"
            : "not encrypted"
        let wwdr = imported.addedIntermediate.map { "added as \($0.path)" } ?? "already in \(job.identities.appendingPathComponent("wwdr").path)"
        console.out("""
        Imported \(passType) (team \(certificate.teamIdentifier ?? "none"))
          certificate   \(imported.folder.appendingPathComponent("certificate.pem").path)  (valid to \(certificate.notAfter.formatted(.iso8601)))
          private key   \(imported.folder.appendingPathComponent("private-key.pem").path)  (mode 0600, \(key))
          WWDR          \(imported.intermediate.subject) (\(wwdr))
        """)
        for warning in imported.warnings { console.err("Warning: \(warning)") }
        return .success
    }
}

/// A signing error with the environment variable that would have opened the file, when that is what was missing.
private struct PassphraseHint: Error, CustomStringConvertible {
    let error: SigningError

    var description: String {
        switch error {
        case .passphraseRequired, .wrongPassphrase:
            return "\(error); set the passphrase in PASSWRIGHT_KEY_PASSPHRASE (for a .p12, the password chosen when exporting it from Keychain) or PASSWRIGHT_KEY_PASSPHRASE_<ID> for a key"
        default:
            return "\(error)"
        }
    }
}
