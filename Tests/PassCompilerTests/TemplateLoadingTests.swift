import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing

/// A template folder is read the way Wallet wants it packaged: junk left out and reported, images and
/// strings checked before anything is signed, errors naming the file.
@Suite struct TemplateLoadingTests {
    @Test func junkIsNotPackaged() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            let manager = FileManager.default
            try Data("finder".utf8).write(to: directory.appendingPathComponent(".DS_Store"))
            try Data("finder".utf8).write(to: directory.appendingPathComponent("en.lproj/.DS_Store"))
            try Data("secret".utf8).write(to: directory.appendingPathComponent(".hidden"))
            try Data("# notes".utf8).write(to: directory.appendingPathComponent("README.md"))
            try manager.createDirectory(at: directory.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
            try TestPNG.solid(width: 38, height: 38).write(to: directory.appendingPathComponent("__MACOSX/icon.png"))
            try manager.createDirectory(at: directory.appendingPathComponent("assets"), withIntermediateDirectories: true)
            try TestPNG.solid(width: 10, height: 10).write(to: directory.appendingPathComponent("assets/strip.png"))
            try manager.createSymbolicLink(at: directory.appendingPathComponent("logo.png"), withDestinationURL: directory.appendingPathComponent("icon.png"))

            let template = try Template.load(from: directory)
            let packaged = ["de.lproj/pass.strings", "en.lproj/pass.strings", "icon.png", "icon@2x.png", "icon@3x.png"]
            #expect(template.files.map(\.path) == packaged)
            #expect(!template.hasImage("logo"))
            for skipped in ["logo.png", "README.md", "assets/"] {
                #expect(template.skippedFiles.contains { $0.hasPrefix(skipped + " ") }, "\(skipped) not in \(template.skippedFiles)")
            }
            #expect(!template.skippedFiles.contains { $0.contains("DS_Store") || $0.contains("MACOSX") || $0.contains(".hidden") })

            let compiled = try TestTemplate.compiler(for: template).compile(PassInput(record: TestTemplate.baseRecord, recordName: "r"))
            #expect(try Archive(compiled.archive).names == packaged + ["pass.json", "manifest.json", "signature"])
        }
    }

    @Test func textNamedPNGIsRefused() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            try Data("this is not an image".utf8).write(to: directory.appendingPathComponent("strip.png"))
            let error = try #require(throws: PassCompilerError.self) { try Template.load(from: directory) }
            #expect("\(error)".hasPrefix("strip.png: is not a valid PNG"))
        }
    }

    /// Wallet scales an `@2x` that is not exactly twice its `@1x` and shows the pass (Apple's
    /// validator does not check it either), so the template loads and builds; lint warns.
    @Test func retinaSizeOffByTwoPixelsStillBuilds() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            try TestPNG.solid(width: 78, height: 78).write(to: directory.appendingPathComponent("icon@2x.png"))
            let template = try Template.load(from: directory)
            _ = try TestTemplate.compiler(for: template).compile(PassInput(record: TestTemplate.baseRecord, recordName: "record 1"))
        }
    }

    /// Every unusable file is named in one run: two broken PNGs and no icon are three problems.
    @Test func everyFileProblemAtOnce() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            for name in ["icon.png", "icon@2x.png", "icon@3x.png"] {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            try Data("not an image".utf8).write(to: directory.appendingPathComponent("strip.png"))
            try Data("not an image".utf8).write(to: directory.appendingPathComponent("logo.png"))
            let error = try #require(throws: PassCompilerError.self) { try Template.load(from: directory) }
            let lines = "\(error)".split(separator: "\n")
            #expect(lines.count == 3, "\(error)")
            #expect(lines.contains { $0.hasPrefix("icon.png: is missing") })
            #expect(lines.contains { $0.hasPrefix("strip.png: is not a valid PNG") })
        }
    }

    @Test func missingIconIsRefused() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            for file in ["icon.png", "icon@2x.png", "icon@3x.png"] {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(file))
            }
            try TestPNG.solid(width: 160, height: 50).write(to: directory.appendingPathComponent("logo.png"))
            let error = try #require(throws: PassCompilerError.self) { try Template.load(from: directory) }
            guard case .templateFile(let file, _) = error else {
                Issue.record("expected templateFile, got \(error)")
                return
            }
            #expect(file == "icon.png")
        }
    }

    @Test func stringsInUTF8AndUTF16BEAreArchivedAsUTF16LE() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            let german = "\"Balance\" = \"Guthaben für Käse\";\n\"Member\" = \"Mitglied\";\n"
            var bigEndian = Data([0xFE, 0xFF])
            for unit in german.utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            try bigEndian.write(to: directory.appendingPathComponent("de.lproj/pass.strings"))

            let template = try Template.load(from: directory)
            #expect(template.localizations["de"]?["Balance"] == "Guthaben für Käse")
            #expect(template.localizations["en"]?["Member"] == "Member")
            let archive = try Archive(TestTemplate.compiler(for: template).compile(PassInput(record: TestTemplate.baseRecord, recordName: "r")).archive)
            for language in ["en", "de"] {
                let bytes = try #require(archive.files["\(language).lproj/pass.strings"])
                #expect(Array(bytes.prefix(2)) == [0xFF, 0xFE])
                let text = try #require(String(data: bytes.dropFirst(2), encoding: .utf16LittleEndian))
                #expect(text.contains(language == "de" ? "\"Guthaben für Käse\"" : "\"Balance\" = \"Balance\";"))
            }
        }
    }

    @Test(arguments: [
        ("\"Member\" \"Mitglied\";", "expected '='"),
        ("\"Member\" = \"Mitglied\"", "expected ';'"),
        ("\"Member\" = Mitglied;", "expected a quoted value"),
        ("\"Member = \"Mitglied\";", "expected '='"),
        ("/* open comment", "never closed"),
    ])
    func stringsSyntaxErrorNamesFileAndLine(line3: String, message: String) throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            let text = "/* German */\n\"Balance\" = \"Guthaben\";\n\(line3)\n\n\"Other\" = \"Andere\";\n"
            try Data(text.utf8).write(to: directory.appendingPathComponent("de.lproj/pass.strings"))
            let error = try #require(throws: PassCompilerError.self) { try Template.load(from: directory) }
            guard case .invalidStrings(let file, let line, let found) = error else {
                Issue.record("expected invalidStrings, got \(error)")
                return
            }
            #expect(file == "de.lproj/pass.strings")
            #expect(line == 3, "\(error)")
            #expect(found.contains(message), "\(error)")
        }
    }

    @Test(arguments: ["passTypeIdentifier", "teamIdentifier"])
    func identifiersCannotBePlaceholders(key: String) throws {
        try withTemporaryDirectory { folder in
            var pass = TestTemplate.basePass
            pass[key] = .string("{{\(key)}}")
            let error = try #require(throws: PassCompilerError.self) { try TestTemplate.load(pass, in: folder) }
            guard case .invalidTemplate(let file, let path, _) = error else {
                Issue.record("expected invalidTemplate, got \(error)")
                return
            }
            #expect(file == "pass.json" && path == key)
        }
    }
}
