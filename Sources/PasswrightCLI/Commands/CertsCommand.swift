import Foundation
import PassCompiler
import Signing

/// `passwright certs`: development identities and certificate inspection.
struct CertsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "certs",
        abstract: "Request, import and inspect Pass Type ID certificates; make development pass and order identities.",
        discussion: """
        SUBCOMMANDS:
          request   Make a private key and a CSR to upload to Apple's developer portal, with the next steps.
          import    Check a .cer, .pem or .p12 from Apple's portal or Keychain and write the identity folder.
          dev       Make a throwaway root CA, a WWDR-like intermediate and a Pass or Order Type ID certificate (NOT FOR PRODUCTION).
          inspect   Show a certificate's kind, pass or order type ID, team ID, issuer, validity and matching WWDR intermediate.
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
        try checkedTypeIdentifier(value, kind: .pass)
    }

    /// `--pass-type-id` or `--order-type-id`: the kind's Apple prefix (`pass.`, `order.`) + reverse DNS,
    /// without a `/`, since it names the identity's folder.
    static func checkedTypeIdentifier(_ value: String, kind: TypeIdentifierKind) throws(UsageError) -> String {
        let prefix = "\(kind.rawValue)."
        guard value.hasPrefix(prefix), value.count > prefix.count, !value.contains("/") else {
            throw UsageError("--\(kind.rawValue)-type-id must look like \(prefix)com.example.name, not '\(value)'")
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
        the CA is reused. With --order-type-id, an Order Type ID certificate in <out>/<order-type-id>/ instead,
        under the same CA, for 'passwright build ORDER_DIR'. Wallet on a real device refuses what these sign.
        With --csr, the development intermediate signs that request instead, as Apple's portal would, and
        writes <csr>.cer (DER) beside it: the whole 'certs request' → 'certs import' path, locally.
        """,
        options: [
            .value("csr", "FILE", help: "Sign this certificate signing request with the development CA (made first if missing) instead."),
            .value("order-type-id", "ID", help: "Make an Order Type ID identity for this order type identifier (order.com.example.name)."),
            .value("out", "DIR", help: "Identities folder (default: $PASSWRIGHT_IDENTITIES or ./Certificates)."),
            .value("pass-type-id", "ID", help: "Pass type identifier (default: pass.dev.passwright.loyalty)."),
            .value("team-id", "ID", help: "Team identifier, 10 characters (default: PASSWRIGHT)."),
        ])

    /// What is made: a certificate for someone's request, or a whole identity of one kind.
    enum Target: Sendable {
        case request(URL)
        case identity(kind: TypeIdentifierKind, typeIdentifier: String)
    }

    let out: URL
    let target: Target
    let teamIdentifier: String

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        out = URL(fileURLWithPath: arguments.value("out") ?? environment["PASSWRIGHT_IDENTITIES"] ?? "Certificates")
        let passType = arguments.value("pass-type-id")
        let orderType = arguments.value("order-type-id")
        if let csr = arguments.value("csr") {
            guard orderType == nil else { throw UsageError("--csr takes the certificate's kind and identifier from the request; leave out --order-type-id") }
            target = .request(URL(fileURLWithPath: csr))
        } else if let orderType {
            guard passType == nil else { throw UsageError("give --pass-type-id or --order-type-id, not both: one identity per run") }
            target = .identity(kind: .order, typeIdentifier: try CertsCommand.checkedTypeIdentifier(orderType, kind: .order))
        } else {
            target = .identity(kind: .pass, typeIdentifier: try CertsCommand.checkedPassTypeIdentifier(passType ?? "pass.dev.passwright.loyalty"))
        }
        teamIdentifier = arguments.value("team-id") ?? "PASSWRIGHT"
    }

    func run(console: Console) async throws -> ExitStatus {
        let now = Date()
        switch target {
        case .request(let request):
            return try certify(request, now: now, console: console)
        case .identity(let kind, let typeIdentifier):
            let files = try DevCertificates.create(in: out, typeIdentifier: typeIdentifier, kind: kind, teamIdentifier: teamIdentifier, now: now)
            let what = kind == .order ? "Order Type ID identity" : "identity"
            console.out("Development \(what) for \(typeIdentifier) (team \(teamIdentifier)) — NOT FOR PRODUCTION")
            console.out("  certificate   \(files.certificate.path)")
            console.out("  private key   \(files.privateKey.path)")
            console.out("  intermediate  \(files.intermediate.path)")
            console.out("  root CA       \(files.rootCertificate.path)  (passwright verify --ca \(files.rootCertificate.path))")
            return .success
        }
    }

    /// Signs `request` with the development intermediate, as Apple's portal would.
    private func certify(_ request: URL, now: Date, console: Console) throws -> ExitStatus {
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
}

/// `passwright certs inspect`.
struct InspectCertCommand: Subcommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show what a Pass or Order Type ID certificate is for and whether it can sign today.",
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
        console.out("kind             \(Self.kind(of: certificate))")
        console.out("pass type ID     \(certificate.passTypeIdentifier ?? "none (not a Pass Type ID certificate)")")
        console.out("order type ID    \(certificate.orderTypeIdentifier ?? "none (not an Order Type ID certificate)")")
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

    /// What the certificate signs, from its common name's prefix as Apple's portal writes it; one
    /// with only a subject UID could be either, and says so.
    static func kind(of certificate: Certificate) -> String {
        switch (certificate.passTypeIdentifier, certificate.orderTypeIdentifier) {
        case (.some, nil): return "Pass Type ID certificate (signs passes)"
        case (nil, .some): return "Order Type ID certificate (signs orders)"
        case (.some, .some): return "a type ID certificate without Apple's Pass Type ID or Order Type ID name"
        case (nil, nil): return "neither a Pass Type ID nor an Order Type ID certificate"
        }
    }
}
