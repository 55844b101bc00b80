import Foundation
import WalletCore

/// `passwright templates versions NAME`: one template's history and roll-out (`--order`: an order
/// template's history, which has no roll-out: orders keep the version they were made from).
struct TemplatesVersionsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "versions",
        abstract: "Show a template's versions on a running server, its passes and how many are behind.",
        discussion: """
            The current version is marked with '*'. A version that 'restores' another was made by a rollback. \
            With --order, the versions of the order template NAME (orders/NAME) and how many orders each \
            signs: new orders are made from the current one, and each order keeps the version it was made from.
            """,
        arguments: [CommandSpec.Argument(name: "NAME", help: "The template's name.")],
        options: [.flag("order", help: "NAME is an order template.")] + AdminAPI.readOptions)

    let name: String
    let api: AdminAPI
    let json: Bool
    let order: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        name = arguments.positional(0)!
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
        order = arguments.flag("order")
    }

    func run(console: Console) async throws -> ExitStatus {
        if order { return try await runForOrderTemplate(console: console) }
        let path = "/api/v1/templates/\(PathSegment.escaped(name))"
        guard let details = try await api.read(path, as: TemplateDetails.self, raw: json, console: console) else { return .success }
        console.out("\(details.name): version \(details.currentVersion) current, \(details.status.rawValue)"
            + (details.reason.map { " (\($0))" } ?? "") + "; \(details.passes) passes, \(details.passesBehind) behind")
        var table = TextTable("", "VERSION", "UPLOADED AT", "UPLOADED BY", "DIGEST", "RESTORES")
        for version in details.versions.sorted(by: { $0.version > $1.version }) {
            table.add(
                version.version == details.currentVersion ? "*" : "", String(version.version), version.uploadedAt.formatted(.iso8601), version.uploadedBy,
                String(version.digest.prefix(12)), version.restores.map(String.init) ?? "")
        }
        console.out(table.rendered)
        return .success
    }

    private func runForOrderTemplate(console: Console) async throws -> ExitStatus {
        let path = "/api/v1/order-templates/\(PathSegment.escaped(name))"
        guard let details = try await api.read(path, as: OrderTemplateDetails.self, raw: json, console: console) else { return .success }
        console.out("\(details.name): order template version \(details.currentVersion) current, \(details.status.rawValue)"
            + (details.reason.map { " (\($0))" } ?? "") + "; order type \(details.orderTypeIdentifier)")
        var table = TextTable("", "VERSION", "ORDERS", "STORED AT", "STORED BY", "DIGEST")
        for version in details.versions.sorted(by: { $0.version > $1.version }) {
            table.add(
                version.version == details.currentVersion ? "*" : "", String(version.version), String(version.orders),
                version.storedAt.formatted(.iso8601), version.storedBy, String(version.digest.prefix(12)))
        }
        console.out(table.rendered)
        return .success
    }
}
