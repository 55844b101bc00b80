import Foundation
import OrderPackage
import PassCompiler
import Signing
import WalletPackage

/// `passwright verify`: checks a `.pkpass` or an `.order` the way Wallet would, and says everything
/// that is wrong.
struct VerifyCommand: Subcommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a .pkpass or .order: layout, manifest hashes, signature, chain, identifiers, pass.json or order.json.",
        discussion: """
        The kind is read from the archive (order.json or pass.json at its root), else from the file's extension.
        Exit status: 0 when every check passes (warnings allowed), 1 when any fails.
        """,
        arguments: [CommandSpec.Argument(name: "FILE", help: "The .pkpass or .order to check.")],
        options: [
            .value("ca", "FILE", help: "Root CA certificate(s) the signature must chain to (PEM or DER); without it the chain is not checked."),
        ])

    let file: String
    let ca: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        file = arguments.positional(0)!
        ca = arguments.value("ca")
    }

    func run(console: Console) async throws -> ExitStatus {
        let archive: Data
        do {
            archive = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw PassCompilerError.invalidArchive(entry: file, message: "cannot be read: \(error.localizedDescription)")
        }
        let roots = try ca.map { try Certificate.loadAll(from: URL(fileURLWithPath: $0)) } ?? []
        let report = WalletDocumentKind.of(archive: archive, path: file) == .order
            ? OrderVerifier.verify(archive: archive, trustedRoots: roots)
            : PassVerifier.verify(archive: archive, trustedRoots: roots)
        console.out(file)
        for check in report.checks { console.out("  \(check)") }
        console.out(report.isValid ? "valid" : "INVALID")
        return report.isValid ? .success : .failure
    }
}
