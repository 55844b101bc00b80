import Foundation
import OrderPackage

/// `passwright build ORDER_DIR`: an order folder → one signed `.order`, with the Order Type ID
/// identity named by its `orderTypeIdentifier`. Every problem of the order (decoding, Wallet's
/// rules, missing or misplaced files) comes in one error, and nothing is written unless it signs.
struct OrderBuild: Sendable {
    let folder: String
    let out: String?
    let identities: IdentityOptions

    func run(console: Console) throws -> ExitStatus {
        let source = try OrderSource.load(from: URL(fileURLWithPath: folder))
        let now = Date()
        let packager = try identities.orderPackager(for: source.order.orderTypeIdentifier, now: now)
        let compiled = try packager.package(source, at: now)
        for skipped in source.skipped { console.err("warning: not packaged: \(skipped)") }
        for warning in source.warnings + compiled.warnings { console.err("warning: \(warning)") }
        let order = compiled.order
        try ArchiveOutput.write(compiled.archive, to: out, defaultPath: "\(order.orderIdentifier).order",
                                summary: "\(order.orderTypeIdentifier), order \(order.orderIdentifier)", console: console)
        return .success
    }
}
