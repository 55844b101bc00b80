import Foundation

/// `passwright templates push DIR`: one folder as a new version of a template.
struct TemplatesPushCommand: Subcommand {
    static let spec = CommandSpec(
        name: "push",
        abstract: "Upload a template folder as a new version of a template on a running server.",
        discussion: """
        Zips the folder's root files and <language>.lproj/ files (junk such as .DS_Store is left out, and
        said so) and PUTs it to /api/v1/templates/<name>. The server lints it: with errors nothing is stored,
        every error is printed and the exit status is 1. Otherwise prints the version, whether it changed and
        how many passes the new version is rolled out to; warnings go to standard error. A folder with an
        order.json and no pass.json is an order template: PUT to /api/v1/order-templates/<name>, its new
        version is what new orders are made from (orders already made keep theirs).
        """,
        arguments: [CommandSpec.Argument(name: "DIR", help: "The template folder (with a pass.json, or an order template's order.json).")],
        options: [
            .value("name", "NAME", help: "The template's name (default: the folder's name)."),
            AdminAPI.serverOption,
        ])

    let folder: URL
    let name: String
    let api: AdminAPI

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        folder = URL(fileURLWithPath: arguments.positional(0)!, isDirectory: true)
        name = arguments.value("name") ?? folder.standardizedFileURL.lastPathComponent
        api = try AdminAPI(arguments: arguments, environment: environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        let outcome = try await TemplateUploader(api: api).upload(folder: folder, name: name)
        outcome.report(name: name, to: console)
        if outcome.isStored { console.out(outcome.summary(name: name)) }
        return outcome.isStored ? .success : .failure
    }
}
