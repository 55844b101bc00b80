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
        if order {
            return try await show("/api/v1/order-templates/\(PathSegment.escaped(name))", as: OrderTemplateDetails.self, console: console) { details in
                var table = TextTable("", "VERSION", "ORDERS", "STORED AT", "STORED BY", "DIGEST")
                for version in details.versions.sorted(by: { $0.version > $1.version }) {
                    table.add(
                        version.version == details.currentVersion ? "*" : "", String(version.version), String(version.orders),
                        version.storedAt.formatted(.iso8601), version.storedBy, String(version.digest.prefix(12)))
                }
                return ("\(details.name): order template version \(details.currentVersion) current, \(details.status.rawValue)"
                    + (details.reason.map { " (\($0))" } ?? "") + "; order type \(details.orderTypeIdentifier)", table)
            }
        }
        return try await show("/api/v1/templates/\(PathSegment.escaped(name))", as: TemplateDetails.self, console: console) { details in
            var table = TextTable("", "VERSION", "UPLOADED AT", "UPLOADED BY", "DIGEST", "RESTORES")
            for version in details.versions.sorted(by: { $0.version > $1.version }) {
                table.add(
                    version.version == details.currentVersion ? "*" : "", String(version.version), version.uploadedAt.formatted(.iso8601), version.uploadedBy,
                    String(version.digest.prefix(12)), version.restores.map(String.init) ?? "")
            }
            return ("\(details.name): version \(details.currentVersion) current, \(details.status.rawValue)"
                + (details.reason.map { " (\($0))" } ?? "") + "; \(details.passes) passes, \(details.passesBehind) behind", table)
        }
    }

    /// Reads `path`; with `--json` prints the answer as it is, else a line about the template and its
    /// versions' table, as `render` makes them.
    private func show<Details: WireValue>(
        _ path: String, as type: Details.Type, console: Console, render: (Details) -> (headline: String, versions: TextTable)
    ) async throws -> ExitStatus {
        guard let details = try await api.read(path, as: type, raw: json, console: console) else { return .success }
        let (headline, versions) = render(details)
        console.out(headline)
        console.out(versions.rendered)
        return .success
    }
}
