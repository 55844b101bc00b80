import WalletCore

/// `passwright templates list`: a server's pass templates and order templates.
struct TemplatesListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List a running server's templates: current version, status and pass or order type.",
        discussion: """
            Pass templates first, then order templates (the folders under orders/). --orders lists only \
            order templates; with --json the server's answer is printed as it is: the pass templates' \
            (GET /api/v1/templates), or with --orders the order templates' (GET /api/v1/order-templates).
            """,
        options: [.flag("orders", help: "List only order templates.")] + AdminAPI.readOptions)

    let api: AdminAPI
    let json: Bool
    let ordersOnly: Bool

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        api = try AdminAPI(arguments: arguments, environment: environment)
        json = arguments.flag("json")
        ordersOnly = arguments.flag("orders")
    }

    func run(console: Console) async throws -> ExitStatus {
        if !ordersOnly {
            guard let list = try await api.read("/api/v1/templates", as: TemplateList.self, raw: json, console: console) else { return .success }
            var table = TextTable("NAME", "VERSION", "STATUS", "PASS TYPE")
            for entry in list.templates {
                table.add(entry.name, entry.version.map(String.init) ?? "-", entry.status.rawValue, entry.passTypeIdentifier ?? entry.reason ?? "")
            }
            console.out(table.rendered)
        }
        guard let orders = try await api.read("/api/v1/order-templates", as: OrderTemplateList.self, raw: json, console: console) else { return .success }
        // A server without order templates adds nothing to the pass templates' table.
        guard ordersOnly || !orders.templates.isEmpty else { return .success }
        var table = TextTable("ORDER TEMPLATE", "VERSION", "STATUS", "ORDER TYPE")
        for entry in orders.templates {
            table.add(entry.name, String(entry.version), entry.status.rawValue, entry.reason.map { "\(entry.orderTypeIdentifier) (\($0))" } ?? entry.orderTypeIdentifier)
        }
        if !ordersOnly { console.out("") }
        console.out(table.rendered)
        return .success
    }
}
