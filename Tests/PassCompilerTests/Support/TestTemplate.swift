import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Signing

/// A minimal valid template the tests write themselves: a storeCard with placeholders, icons at 38,
/// 76 and 114 px, and `en`/`de` `pass.strings`; `pass.json` starts from `basePass`, which a test may
/// change first.
enum TestTemplate {
    static let basePass: JSONObject = [
        "formatVersion": .number(1),
        "passTypeIdentifier": .string(ThrowawayPKI.testPassType),
        "teamIdentifier": .string(ThrowawayPKI.team),
        "organizationName": .string("Passwright Tests"),
        "description": .string("Test card"),
        "backgroundColor": .string("rgb(20, 40, 60)"),
        "foregroundColor": .string("rgb(255, 255, 255)"),
        "storeCard": .object([
            "primaryFields": .array([.object([
                "key": .string("balance"), "label": .string("Balance"), "value": .string("{{balance}}"),
            ])]),
            "secondaryFields": .array([.object([
                "key": .string("member"), "label": .string("Member"), "value": .string("{{member.name}}"),
            ])]),
        ]),
        "barcodes": .array([.object([
            "format": .string("PKBarcodeFormatQR"), "message": .string("{{member.id}}"), "messageEncoding": .string("iso-8859-1"),
        ])]),
    ]

    static let baseRecord: JSONValue = .object([
        "balance": .number(12),
        "member": .object(["name": .string("Ada Lovelace"), "id": .string("M-0001")]),
    ])

    static let englishStrings = "\"Balance\" = \"Balance\";\n\"Member\" = \"Member\";\n"
    static let germanStrings = "/* German */\n\"Balance\" = \"Guthaben\";\n\"Member\" = \"Mitglied\";\n"

    /// Writes the template folder `folder/name` and returns it.
    @discardableResult
    static func write(_ pass: JSONObject = basePass, in folder: URL, name: String = "card") throws -> URL {
        let directory = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONValue.object(pass).serialized(sortedKeys: false).write(to: directory.appendingPathComponent("pass.json"))
        for (file, size) in [("icon.png", 38), ("icon@2x.png", 76), ("icon@3x.png", 114)] {
            try TestPNG.solid(width: size, height: size).write(to: directory.appendingPathComponent(file))
        }
        for (language, text) in [("en", englishStrings), ("de", germanStrings)] {
            let lproj = directory.appendingPathComponent("\(language).lproj", isDirectory: true)
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: lproj.appendingPathComponent("pass.strings"))
        }
        return directory
    }

    /// Writes and loads the template.
    static func load(_ pass: JSONObject = basePass, in folder: URL) throws -> Template {
        try Template.load(from: write(pass, in: folder))
    }

    /// A compiler for `template` signed by its pass type's dev identity.
    static func compiler(for template: Template, options: CompileOptions = CompileOptions()) throws -> PassCompiler {
        let identities = try ThrowawayPKI.shared()
        return try PassCompiler(template: template, identity: identities.identity(for: template.passTypeIdentifier),
                                intermediate: identities.intermediate, options: options)
    }

    /// Loads `pass` as a template and compiles `record` with it.
    static func compile(_ pass: JSONObject = basePass, record: JSONValue = baseRecord, in folder: URL) throws -> CompiledPass {
        let template = try load(pass, in: folder)
        return try compiler(for: template).compile(PassInput(record: record, recordName: "test record"))
    }
}

extension JSONValue {
    /// A member of an object, for tests that edit a pass tree in place (`pass["storeCard"]?["primaryFields"]`).
    subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else { return }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// An element of an array.
    subscript(index: Int) -> JSONValue? {
        get {
            guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
            return elements[index]
        }
        set {
            guard case .array(var elements) = self, elements.indices.contains(index), let newValue else { return }
            elements[index] = newValue
            self = .array(elements)
        }
    }

    var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }
}
