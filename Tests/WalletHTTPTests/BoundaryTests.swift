import Foundation
import Testing

/// Style rule 14, enforced: the HTTP adapters see services, never the store. `WalletHTTP` must not
/// list `WalletStore` or `Storage` (or their C modules) among its dependencies in `Package.swift`,
/// and no file under `Sources/WalletHTTP` may import them. The second check is needed as well as the
/// first: SwiftPM lets a target import any module its dependencies build, so a forgotten
/// `import WalletStore` would compile without the dependency. The services, for their part, stay
/// free of HTTP: `WalletCore` neither depends on nor imports `HTTPServer`.
@Suite struct BoundaryTests {
    /// Each target, with the modules it must not reach.
    static let boundaries: [(target: String, forbidden: [String])] = [
        ("WalletHTTP", ["WalletStore", "Storage", "CSQLite", "CPostgres"]),
        ("WalletCore", ["HTTPServer", "CMicroHTTPD"]),
    ]

    /// The checkout, found from this file (`Tests/WalletHTTPTests/BoundaryTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: boundaries)
    func thePackageGivesNoForbiddenDependency(target: String, forbidden: [String]) throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let dependencies = try #require(Self.targetDeclaration(target, in: manifest), "no .target(name: \"\(target)\" …) in Package.swift")
        for module in forbidden {
            #expect(!dependencies.contains("\"\(module)\""), "Package.swift: \(target) depends on \(module), across the boundary of style rule 14")
        }
    }

    @Test(arguments: boundaries)
    func noSourceImportsAForbiddenModule(target: String, forbidden: [String]) throws {
        let folder = Self.root.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "Sources/\(target) holds \(files.count) Swift files; the check is looking in the wrong place")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let module = Self.importedModule(String(line)), forbidden.contains(module) {
                    Issue.record("\(file.path.dropFirst(Self.root.path.count + 1)):\(number + 1) imports \(module), across the boundary of style rule 14")
                }
            }
        }
    }

    @Test func theImportCheckSeesEveryImportForm() {
        #expect(Self.importedModule("import WalletStore") == "WalletStore")
        #expect(Self.importedModule("@testable import Storage") == "Storage")
        #expect(Self.importedModule("  internal import WalletStore // why") == "WalletStore")
        #expect(Self.importedModule("@preconcurrency public import Storage") == "Storage")
        #expect(Self.importedModule("import struct WalletStore.StoredPass") == "WalletStore")
        #expect(Self.importedModule("import WalletCore") == "WalletCore")
        #expect(Self.importedModule("/// import WalletStore") == nil)
        #expect(Self.importedModule("let important = 1") == nil)
    }

    /// The module a Swift `import` line names (any attributes, access level or declaration kind
    /// before it), or `nil` for any other line.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if let comment = words.firstIndex(where: { $0.hasPrefix("//") }) { words.removeSubrange(comment...) }
        while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }

    /// The text of `.target(name: "<name>", …)` in a manifest, to its closing parenthesis.
    static func targetDeclaration(_ name: String, in manifest: String) -> Substring? {
        guard let start = manifest.range(of: ".target(name: \"\(name)\"") else { return nil }
        var depth = 0
        for index in manifest[start.lowerBound...].indices {
            switch manifest[index] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return manifest[start.lowerBound...index] }
            default: break
            }
        }
        return nil
    }
}
