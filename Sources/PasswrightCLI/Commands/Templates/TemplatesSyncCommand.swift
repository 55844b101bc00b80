import Foundation

/// `passwright templates sync DIR`: every template folder of a folder, as `serve --templates` imports them.
struct TemplatesSyncCommand: Subcommand {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Upload every subfolder of a folder that has a pass.json, and every orders/<name> with an order.json, each as its template's new version.",
        discussion: """
        Each subfolder is pushed as 'templates push' does, under the subfolder's name, in name order, then
        each order template folder under orders/; a line per template as it is done. The exit status is 1
        if any template was refused (the others are still uploaded).
        """,
        arguments: [CommandSpec.Argument(name: "DIR", help: "The folder of template folders (like Templates/).")],
        options: [AdminAPI.serverOption])

    let folder: URL
    let api: AdminAPI

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        folder = URL(fileURLWithPath: arguments.positional(0)!, isDirectory: true)
        api = try AdminAPI(arguments: arguments, environment: environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        let passTemplates = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/pass.json").path)
        }
        let orders = folder.appendingPathComponent("orders", isDirectory: true)
        let orderTemplates = ((try? FileManager.default.contentsOfDirectory(atPath: orders.path)) ?? []).sorted().filter {
            FileManager.default.fileExists(atPath: orders.appendingPathComponent("\($0)/order.json").path)
        }
        // Each with the folder it is read from and the name it is stored under.
        let templates = passTemplates.map { (shown: $0, folder: folder.appendingPathComponent($0, isDirectory: true), name: $0) }
            + orderTemplates.map { (shown: "orders/\($0)", folder: orders.appendingPathComponent($0, isDirectory: true), name: $0) }
        guard !templates.isEmpty else {
            console.err("Error: no subfolder of \(folder.path) has a pass.json, and none of its orders/ an order.json")
            return .failure
        }
        let uploader = TemplateUploader(api: api)
        var refused: [String] = []
        for (index, template) in templates.enumerated() {
            let outcome = try await uploader.upload(folder: template.folder, name: template.name)
            outcome.report(name: template.shown, to: console)
            console.out("[\(index + 1)/\(templates.count)] \(outcome.summary(name: template.shown))")
            if !outcome.isStored { refused.append(template.shown) }
        }
        console.out("\(templates.count) template\(templates.count == 1 ? "" : "s"): \(templates.count - refused.count) stored, \(refused.count) refused"
            + (refused.isEmpty ? "" : " (\(refused.joined(separator: ", ")))"))
        return refused.isEmpty ? .success : .failure
    }
}
