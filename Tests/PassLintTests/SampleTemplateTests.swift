import Foundation
import PasswrightTesting
import Testing

/// The real `passwright` binary (build it first: `swift build --product passwright`) on the sample
/// templates shipped in `Templates/`.
@Suite("Sample templates lint clean under --strict")
struct SampleTemplateTests {
    static let root = Repository.root
    static let templates = ["boarding", "concert", "coupon", "loyalty", "membership", "poster-event"]

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let environment = ProcessInfo.processInfo.environment
        // A clean environment, but a sanitizer build under test keeps its options.
        let clean = ["PATH": "/usr/bin:/bin"].merging(environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }) { $1 }
        let result = try Subprocess.runBlocking(try Repository.passwrightBinary(), arguments, environment: clean, directory: root)
        return (result.status, result.out + result.err)
    }

    @Test(arguments: templates)
    func strictClean(_ name: String) throws {
        let plain = try Self.run(["lint", "--strict", "Templates/\(name)"])
        #expect(plain.status == 0, "\(plain.output)")
        let rendered = try Self.run(["lint", "--strict", "--record", "Templates/samples/\(name).json", "Templates/\(name)"])
        #expect(rendered.status == 0, "\(rendered.output)")
    }

    @Test("loyalty batches lint clean: CSV and JSON Lines")
    func batches() throws {
        for file in ["loyalty.csv", "loyalty.jsonl"] {
            let result = try Self.run(["lint", "--strict", "--records", "Templates/samples/\(file)", "Templates/loyalty"])
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test("exit 2 for warnings under --strict, 0 without it; JSON output; 64 for a bad option")
    func exitStatuses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passlint-cli-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Templates/coupon"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let passJSON = folder.appendingPathComponent("pass.json")
        var text = try String(contentsOf: passJSON, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"altText\": \"{{offer.code}}\"", with: "\"altText\": \"{{offer.code}}\", \"message2\": 1")
        text = text.replacingOccurrences(of: "\"webServiceURL\": \"https://wallet.harborbooks.example/passes/\",", with: "")
        try text.write(to: passJSON, atomically: true, encoding: .utf8)
        #expect(try Self.run(["lint", "--strict", folder.path]).status == 2)
        #expect(try Self.run(["lint", folder.path]).status == 0)
        let json = try Self.run(["lint", "--format", "json", folder.path])
        #expect(json.output.contains("\"rule\" : \"lifecycle.noWebService\""))
        #expect(try Self.run(["lint", "--strict", "--web-service-url", "https://wallet.example.com/", folder.path]).status == 2)
        #expect(try Self.run(["lint", "--format", "xml", folder.path]).status == 64)
        let help = try Self.run(["lint", "--help"])
        #expect(help.status == 0 && help.output.contains("--strict"))
    }
}
