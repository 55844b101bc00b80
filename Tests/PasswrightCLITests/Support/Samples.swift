import Foundation
import PasswrightTesting

/// The sample templates of the repository (`Templates/<name>/`) and their sample records
/// (`Templates/samples/`), used as a user would use them.
enum Samples {
    static let templatesFolder = CLI.packageRoot.appendingPathComponent("Templates", isDirectory: true)
    static let samplesFolder = templatesFolder.appendingPathComponent("samples", isDirectory: true)

    /// Every sample template: the folders of `Templates/` that hold a `pass.json`.
    static let templateNames: [String] = templatesFolder.fileNames().filter {
        FileManager.default.fileExists(atPath: templatesFolder.appendingPathComponent("\($0)/pass.json").path)
    }

    /// `Templates/<name>/`.
    static func template(_ name: String) -> URL {
        templatesFolder.appendingPathComponent(name, isDirectory: true)
    }

    /// `Templates/samples/<file>`.
    static func sample(_ file: String) -> URL {
        samplesFolder.appendingPathComponent(file)
    }

    /// A template's `pass.json` as an object.
    static func passJSON(_ template: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: template.appendingPathComponent("pass.json")))
        return try (object as? [String: Any]).orThrow("\(template.path)/pass.json is not a JSON object")
    }

    /// The pass type and team a template signs for.
    static func identifiers(of template: URL) throws -> (passType: String, team: String) {
        let object = try passJSON(template)
        return (try (object["passTypeIdentifier"] as? String).orThrow("no passTypeIdentifier"),
                try (object["teamIdentifier"] as? String).orThrow("no teamIdentifier"))
    }

    /// `scratch/templates/` holding a copy of the loyalty sample: the templates folder a served child
    /// starts with when a test needs one template to issue from.
    static func loyaltyTemplates(in scratch: URL) throws -> URL {
        let templates = scratch.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        _ = try copy("loyalty", into: templates) { _ in }
        return templates
    }

    /// A copy of the sample template `name` in `folder`, with `pass.json` changed by `edit`.
    static func copy(_ name: String, into folder: URL, as copyName: String? = nil, editing edit: (inout [String: Any]) -> Void) throws -> URL {
        let copy = folder.appendingPathComponent(copyName ?? name, isDirectory: true)
        try FileManager.default.copyItem(at: template(name), to: copy)
        var object = try passJSON(copy)
        edit(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            .write(to: copy.appendingPathComponent("pass.json"))
        return copy
    }

    /// `samples/loyalty.json` with some keys changed (`nil` removes a key; dotted keys reach into objects).
    static func loyaltyRecord(_ changes: [String: Any?]) throws -> Data {
        var record = try (JSONSerialization.jsonObject(with: Data(contentsOf: sample("loyalty.json"))) as? [String: Any])
            .orThrow("samples/loyalty.json is not a JSON object")
        for (key, value) in changes {
            let parts = key.split(separator: ".").map(String.init)
            if parts.count == 2, var inner = record[parts[0]] as? [String: Any] {
                inner[parts[1]] = value
                record[parts[0]] = inner
            } else {
                record[key] = value
            }
        }
        return try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
    }

    /// CSV for the loyalty template with `count` records, in the columns of `samples/loyalty.csv`:
    /// each row is its first data row with `serialNumber` set to `<prefix>-<n>`. Record `n` is on
    /// line `n + 1`; `changes` edits cells of given lines, `lines` replaces given lines outright.
    static func loyaltyCSV(count: Int, serialPrefix: String = "L", changes: [Int: [String: String]] = [:], lines replaced: [Int: String] = [:]) throws -> Data {
        let lines = try String(contentsOf: sample("loyalty.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let prototypeLine = try lines.dropFirst().first.orThrow("samples/loyalty.csv has no data row")
        guard !prototypeLine.contains("\""), header.contains("serialNumber") else {
            throw SampleError("samples/loyalty.csv should have a serialNumber column and a first row that needs no quoting")
        }
        let prototype = Dictionary(uniqueKeysWithValues: zip(header, prototypeLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        var text = lines[0] + "\n"
        for index in 1...count {
            let line = index + 1
            var cells = prototype
            cells["serialNumber"] = "\(serialPrefix)-\(index)"
            cells.merge(changes[line] ?? [:]) { _, new in new }
            text += (replaced[line] ?? header.map { cells[$0] ?? "" }.joined(separator: ",")) + "\n"
        }
        return Data(text.utf8)
    }

    /// How many columns `samples/loyalty.csv` has.
    static func loyaltyColumnCount() throws -> Int {
        let text = try String(contentsOf: sample("loyalty.csv"), encoding: .utf8)
        return text.prefix { $0 != "\n" }.split(separator: ",", omittingEmptySubsequences: false).count
    }
}

/// A sample file that does not have the shape the tests rely on.
struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension URL {
    /// The names in this folder, sorted (empty when it does not exist).
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
