import Foundation
import PassCompiler
import Signing

/// `passwright certs`: development identities and certificate inspection.
struct CertsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "certs",
        abstract: "Request, import and inspect Pass Type ID certificates; make development identities.",
        discussion: """
        SUBCOMMANDS:
          request   Make a private key and a CSR to upload to Apple's developer portal, with the next steps.
          import    Check a .cer, .pem or .p12 from Apple's portal or Keychain and write the identity folder.
          dev       Make a throwaway root CA, a WWDR-like intermediate and a Pass Type ID certificate (NOT FOR PRODUCTION).
          inspect   Show a certificate's pass type ID, team ID, issuer, validity and matching WWDR intermediate.
        See 'passwright certs <subcommand> --help'.
        """,
        arguments: [CommandSpec.Argument(name: "SUBCOMMAND", help: "request, import, dev or inspect.")])

    static let subcommands: [any Subcommand.Type] = [RequestCertCommand.self, ImportCertCommand.self, DevCertsCommand.self, InspectCertCommand.self]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        throw UsageError("unknown subcommand '\(arguments.positional(0) ?? "")'; use request, import, dev or inspect")
    }

    func run(console: Console) async throws -> ExitStatus { .usage }

    /// `--pass-type-id` as Apple's portal makes them (`pass.` + reverse DNS); it also names a folder,
    /// so it must not hold a `/`.
    static func checkedPassTypeIdentifier(_ value: String) throws(UsageError) -> String {
        guard value.hasPrefix("pass."), value.count > 5, !value.contains("/") else {
            throw UsageError("--pass-type-id must look like pass.com.example.name, not '\(value)'")
        }
        return value
    }
}

/// `passwright certs dev`.
struct DevCertsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "dev",
        abstract: "Make development identities in the identities layout (NOT FOR PRODUCTION).",
        discussion: """
        Writes <out>/dev-ca/root.pem (use it with 'passwright verify --ca'), <out>/wwdr/dev-wwdr.pem and
        <out>/<pass-type-id>/certificate.pem + private-key.pem (mode 0600). Run again for more pass types:
        the CA is reused. Wallet on a real device refuses passes signed with these.
        With --csr, the development intermediate signs that request instead, as Apple's portal would, and
        writes <csr>.cer (DER) beside it: the whole 'certs request' → 'certs import' path, locally.
        """,
        options: [
            .value("csr", "FILE", help: "Sign this certificate signing request with the development CA (made first if missing) instead."),
            .value("out", "DIR", help: "Identities folder (default: $PASSWRIGHT_IDENTITIES or ./Certificates)."),
            .value("pass-type-id", "ID", help: "Pass type identifier (default: pass.dev.passwright.loyalty)."),
            .value("team-id", "ID", help: "Team identifier, 10 characters (default: PASSWRIGHT)."),
        ])

    let out: URL
    let passTypeIdentifier: String
    let teamIdentifier: String
    let request: URL?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        out = URL(fileURLWithPath: arguments.value("out") ?? environment["PASSWRIGHT_IDENTITIES"] ?? "Certificates")
        request = arguments.value("csr").map { URL(fileURLWithPath: $0) }
        passTypeIdentifier = try CertsCommand.checkedPassTypeIdentifier(arguments.value("pass-type-id") ?? "pass.dev.passwright.loyalty")
        teamIdentifier = arguments.value("team-id") ?? "PASSWRIGHT"
    }

    func run(console: Console) async throws -> ExitStatus {
        let now = Date()
        if let request {
            let certificate = request.deletingPathExtension().appendingPathExtension("cer")
            guard let csr = FileManager.default.contents(atPath: request.path) else {
                throw SigningError.fileAccess(path: request.path, operation: "read", reason: "no such readable file (the .csr 'certs request' wrote)")
            }
            let der = try DevCertificates.issue(forRequest: csr, in: out, notBefore: now,
                                                notAfter: now.addingTimeInterval(365 * 86_400))
            try AtomicFile.write(der, to: certificate, existing: .keep)
            console.out("Development certificate for \(request.path) — NOT FOR PRODUCTION")
            console.out("  certificate   \(certificate.path)  (passwright certs import \(certificate.path) --out \(out.path))")
            return .success
        }
        let files = try DevCertificates.create(in: out, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, now: now)
        console.out("Development identity for \(passTypeIdentifier) (team \(teamIdentifier)) — NOT FOR PRODUCTION")
        console.out("  certificate   \(files.certificate.path)")
        console.out("  private key   \(files.privateKey.path)")
        console.out("  intermediate  \(files.intermediate.path)")
        console.out("  root CA       \(files.rootCertificate.path)  (passwright verify --ca \(files.rootCertificate.path))")
        return .success
    }
}

/// `passwright certs inspect`.
struct InspectCertCommand: Subcommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show what a Pass Type ID certificate is for and whether it can sign today.",
        arguments: [CommandSpec.Argument(name: "FILE", help: "A certificate (PEM or DER).")],
        options: [IdentityOptions.option])

    let file: URL
    let identities: IdentityOptions

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        file = URL(fileURLWithPath: arguments.positional(0)!)
        identities = IdentityOptions(arguments: arguments, environment: environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let certificate = try Certificate.loadAll(from: file).first else {
            throw SigningError.invalidCertificate(source: file.path, details: "no certificate in the file")
        }
        let now = Date()
        console.out("subject          \(certificate.subject)")
        console.out("issuer           \(certificate.issuer)")
        console.out("pass type ID     \(certificate.passTypeIdentifier ?? "none (not a Pass Type ID certificate)")")
        console.out("team ID          \(certificate.teamIdentifier ?? "none")")
        console.out("valid            \(certificate.notBefore.formatted(.iso8601)) to \(certificate.notAfter.formatted(.iso8601))\(certificate.isValid(at: now) ? "" : "  (NOT VALID NOW)")")
        console.out("SHA-256          \(certificate.sha256Fingerprint)")
        let candidates = (try? identities.directory.intermediates()) ?? []
        do {
            let intermediate = try WWDRSelection.intermediate(for: certificate, among: candidates, at: now)
            console.out("WWDR match       \(intermediate.subject) (valid to \(intermediate.notAfter.formatted(.iso8601)))")
            return certificate.isValid(at: now) ? .success : .failure
        } catch {
            console.out("WWDR match       none in \(identities.directory.root.path)/wwdr: \(error)")
            return .failure
        }
    }
}
