import Foundation

/// `passwright templates sync DIR`: every template folder of a folder, as `serve --templates` imports them.
struct TemplatesSyncCommand: Subcommand {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Upload every subfolder of a folder that has a pass.json, each as its template's new version.",
        discussion: """
        Each subfolder is pushed as 'templates push' does, under the subfolder's name, in name order; a line
        per template as it is done. The exit status is 1 if any template was refused (the others are still
        uploaded).
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
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/pass.json").path)
        }
        guard !names.isEmpty else {
            console.err("Error: no subfolder of \(folder.path) has a pass.json")
            return .failure
        }
        let uploader = TemplateUploader(api: api)
        var refused: [String] = []
        for (index, name) in names.enumerated() {
            let outcome = try await uploader.upload(folder: folder.appendingPathComponent(name, isDirectory: true), name: name)
            outcome.report(name: name, to: console)
            console.out("[\(index + 1)/\(names.count)] \(outcome.summary(name: name))")
            if !outcome.isStored { refused.append(name) }
        }
        console.out("\(names.count) template\(names.count == 1 ? "" : "s"): \(names.count - refused.count) stored, \(refused.count) refused"
            + (refused.isEmpty ? "" : " (\(refused.joined(separator: ", ")))"))
        return refused.isEmpty ? .success : .failure
    }
}
