import Foundation
import Signing

/// `passwright certs request`: the private key and CSR Apple's portal asks for, with the next steps.
///
/// The key never leaves this machine and never appears on a command line; its passphrase, when one
/// is wanted, comes from the environment, as the server reads it.
struct RequestCertCommand: Subcommand {
    static let spec = CommandSpec(
        name: "request",
        abstract: "Make an RSA-2048 private key and a certificate signing request (CSR) for Apple's portal.",
        discussion: """
        Writes <out>/<pass-type-id>.key.pem (mode 0600) and <out>/<pass-type-id>.csr, then says where to
        upload the CSR and what to do with the certificate Apple returns. With --order-type-id instead, the
        same for an Order Type ID certificate (Wallet orders). An existing key is never replaced.
        The key is encrypted (AES-256) when PASSWRIGHT_KEY_PASSPHRASE_<ID> or PASSWRIGHT_KEY_PASSPHRASE is
        set, e.g. PASSWRIGHT_KEY_PASSPHRASE_PASS_COM_EXAMPLE_LOYALTY for pass.com.example.loyalty; the
        server reads the same variable.
        """,
        options: [
            .value("pass-type-id", "ID", help: "The Pass Type ID registered in Apple's portal, e.g. pass.com.example.loyalty."),
            .value("order-type-id", "ID", help: "Or the Order Type ID registered there, e.g. order.com.example.shop (one of the two is required)."),
            .value("team-id", "TEAM", help: "Your Apple team identifier, 10 characters (required)."),
            .value("out", "DIR", help: "Folder for the key and the CSR (default: the current folder)."),
        ])

    let passTypeIdentifier: String
    let kind: TypeIdentifierKind
    let teamIdentifier: String
    let out: URL
    let passphraseVariable: String
    let passphrase: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        let passType: String
        switch (arguments.value("pass-type-id"), arguments.value("order-type-id")) {
        case (let pass?, nil):
            passType = try CertsCommand.checkedPassTypeIdentifier(pass)
            kind = .pass
        case (nil, let order?):
            passType = try CertsCommand.checkedTypeIdentifier(order, kind: .order)
            kind = .order
        case (nil, nil): throw UsageError("--pass-type-id (or --order-type-id for Wallet orders) is required")
        case (_?, _?): throw UsageError("give --pass-type-id or --order-type-id, not both: a certificate is for one")
        }
        guard let team = arguments.value("team-id") else { throw UsageError("--team-id is required") }
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw UsageError("--team-id is the 10-character team identifier shown under Membership in Apple's developer account, not '\(team)'")
        }
        passTypeIdentifier = passType
        teamIdentifier = team
        out = URL(fileURLWithPath: arguments.value("out") ?? ".")
        let found = IdentityOptions.passphrase(for: passType, in: environment)
        passphraseVariable = found?.variable ?? IdentityOptions.passphraseVariable(for: passType)
        passphrase = found?.value
    }

    func run(console: Console) async throws -> ExitStatus {
        let csr = out.appendingPathComponent("\(passTypeIdentifier).csr")
        let key = out.appendingPathComponent("\(passTypeIdentifier).key.pem")
        let request = try CertificateRequest(passTypeIdentifier: passTypeIdentifier, kind: kind, teamIdentifier: teamIdentifier, passphrase: passphrase)
        let idName = kind == .order ? "Order Type ID" : "Pass Type ID"
        let idsMenu = kind == .order ? "Order Type IDs" : "Pass Type IDs"
        try request.write(csr: csr, privateKey: key)
        let encryption = passphrase == nil
            ? "not encrypted; set \(passphraseVariable) before 'certs request' to encrypt it"
            : "encrypted with the passphrase in \(passphraseVariable)"
        console.out("""
        Certificate signing request for \(passTypeIdentifier) (team \(teamIdentifier)), RSA \(request.keyBits) bits:
          CSR           \(csr.path)
          private key   \(key.path)  (mode 0600, \(encryption))

        Next steps:
          1. Sign in at https://developer.apple.com/account and open Certificates, Identifiers & Profiles.
          2. Under Identifiers, make sure the \(idName) \(passTypeIdentifier) exists (+, then \(idsMenu)).
          3. Under Certificates, press +, choose \(idName) Certificate, pick \(passTypeIdentifier)
             and upload \(csr.lastPathComponent).
          4. Download the certificate Apple makes (a .cer file) and import it:
               passwright certs import \(kind.rawValue).cer --key \(key.path)
             That checks it, finds the WWDR intermediate and writes the folder 'passwright serve' signs with.
        Keep the private key safe: the certificate works with this key only.
        """)
        return .success
    }
}
