import Foundation
import WalletCore
import WalletHTTP

/// `passwright holders`: a holder's (or an order's customer's) data rights on a running server, for
/// whoever answers the requests from a script: export everything kept about them, or erase it,
/// through the API's by-value lookups (`POST /api/v1/exports` and `/erasures`, or their order forms).
struct HoldersCommand: Subcommand {
    static let spec = CommandSpec(
        name: "holders",
        abstract: "Export or erase everything a running server keeps about a holder (or an order's customer), found by a value in their records.",
        discussion: """
        SUBCOMMANDS:
          export --field PATH --value VALUE|- [--template NAME] [--orders]          Prints the export as JSON.
          erase --field PATH --value VALUE|- [--template NAME] [--orders] --yes     Erases; one line a pass or order.
        PATH is a record member, dots between names (member.id; customer.emailAddress for orders). VALUE is
        compared exactly; with --value - it is read from the first line of standard input, which keeps it
        out of the process list and the shell's history.
        The caller's key (or the admin token) comes from PASSWRIGHT_API_KEY or PASSWRIGHT_ADMIN_TOKEN: export
        needs passes:read (orders:read), erase passes:erase (orders:erase).
        """,
        arguments: [CommandSpec.Argument(name: "SUBCOMMAND", help: "export or erase.")])

    static let subcommands: [any Subcommand.Type] = [HoldersExportCommand.self, HoldersEraseCommand.self]

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        throw UsageError("unknown subcommand '\(arguments.positional(0) ?? "")'; use export or erase")
    }

    func run(console: Console) async throws -> ExitStatus { .usage }

    /// The options both subcommands take.
    static let lookupOptions: [CommandSpec.Option] = [
        .value("field", "PATH", help: "The record member that holds the value, e.g. member.id (required)."),
        .value("value", "VALUE", help: "The holder's value there, or - to read it from standard input (required)."),
        .value("template", "NAME", help: "Only this template's passes or orders (a key limited to some templates must name one)."),
        .flag("orders", help: "Look in orders (order.json) rather than passes."),
        AdminAPI.serverOption,
    ]

    /// What a subcommand asks of the server: the lookup, where, and through which API.
    struct Request: Sendable {
        let api: AdminAPI
        let lookup: HolderLookup
        let orders: Bool

        init(_ arguments: ParsedArguments, _ environment: [String: String]) throws {
            guard let field = arguments.value("field"), !field.isEmpty else { throw UsageError("give --field, the record member that holds the value (e.g. member.id)") }
            guard var value = arguments.value("value") else { throw UsageError("give --value, or --value - to read it from standard input") }
            // Standard input keeps the holder's value out of the process list and the shell's history.
            if value == "-" { value = (readLine() ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
            guard !value.isEmpty else { throw UsageError("the value is empty: give the holder's value with --value (or on standard input with --value -)") }
            api = try AdminAPI(arguments: arguments, environment: environment)
            lookup = HolderLookup(field: field, value: value, template: arguments.value("template"))
            orders = arguments.flag("orders")
        }

        /// `POST`s the lookup to `/api/v1/[orders/]name` and returns the answer, or fails naming the refusal.
        func post(_ name: String) async throws -> AdminAPI.Answer {
            try await WebhooksCommand.send(api, "POST", "/api/v1/\(orders ? "orders/" : "")\(name)", body: lookup)
        }
    }
}

/// `passwright holders export`.
struct HoldersExportCommand: Subcommand {
    static let spec = CommandSpec(
        name: "export", abstract: "Print everything kept about the passes (or orders) whose record holds the value, as JSON.",
        options: HoldersCommand.lookupOptions)

    let request: HoldersCommand.Request

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        request = try HoldersCommand.Request(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await request.post("exports")
        console.out(answer.text)
        return .success
    }
}

/// `passwright holders erase`.
struct HoldersEraseCommand: Subcommand {
    static let spec = CommandSpec(
        name: "erase",
        abstract: "Erase the holder's data from every pass (or the customer's from every order) whose record holds the value; cannot be undone.",
        options: HoldersCommand.lookupOptions + [.flag("yes", help: "Erase for real (required: erasing cannot be undone).")])

    let request: HoldersCommand.Request

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard arguments.flag("yes") else {
            throw UsageError("erasing cannot be undone: look first with 'passwright holders export' and the same options, then add --yes")
        }
        request = try HoldersCommand.Request(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        let answer = try await request.post("erasures")
        var table = TextTable(request.orders ? "ORDER TYPE" : "PASS TYPE", request.orders ? "ORDER" : "SERIAL", "STATE", "PUSHES QUEUED")
        if request.orders {
            for order in try answer.decode(OrderErasureResult.self, from: request.api.server).erased {
                table.add(order.orderTypeIdentifier, order.orderIdentifier, order.alreadyErased ? "erased before" : "erased", String(order.pushesQueued))
            }
        } else {
            for pass in try answer.decode(ErasureResult.self, from: request.api.server).erased {
                table.add(pass.passTypeIdentifier, pass.serialNumber, pass.alreadyErased ? "erased before" : "erased", String(pass.pushesQueued))
            }
        }
        guard !table.rows.isEmpty else {
            console.err("Nothing held that value: nothing was erased.")
            return .success
        }
        console.out(table.rendered)
        return .success
    }
}
