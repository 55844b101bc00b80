import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing

/// Every sample template in `Templates/` builds with its sample record into a pass that independent
/// tools accept.
@Suite struct SampleTemplateTests {
    @Test(arguments: ThrowawayPKI.sampleTemplates)
    func sampleBuildsAndVerifies(name: String) throws {
        try withTemporaryDirectory { folder in
            let template = try Template.load(from: Repository.templates.appendingPathComponent(name, isDirectory: true))
            #expect(template.passTypeIdentifier == "pass.dev.passwright.\(name)")
            let recordFile = Repository.templates.appendingPathComponent("samples/\(name).json")
            let record = try JSONValue.parse(Data(contentsOf: recordFile))
            let compiled = try TestTemplate.compiler(for: template).compile(PassInput(record: record, recordName: "\(name).json"))
            #expect(!compiled.warnings.contains { $0.severity == .error })

            try expectVerifiesIndependently(compiled.archive, in: folder)
            let identities = try ThrowawayPKI.shared()
            let report = PassVerifier.verify(archive: compiled.archive, trustedRoots: [identities.root])
            #expect(report.isValid, "\(report.checks)")
            #expect(report.checks.contains { $0.name == "chain" && $0.outcome == .passed })

            // `unzip -l` (Info-ZIP) reads the archive and lists the template's files at the root.
            let file = folder.appendingPathComponent("\(name).pkpass")
            try compiled.archive.write(to: file)
            let listing = try Subprocess.toolBlocking("unzip", ["-l", file.path])
            #expect(listing.succeeded, "\(listing.error)")
            let listed = Set(listing.output.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
            })
            let expected = ["pass.json", "manifest.json", "signature", "icon.png", "icon@2x.png", "icon@3x.png"]
                + template.files.map(\.path)
            for entry in expected { #expect(listed.contains(entry), "unzip -l does not list \(entry)") }
            #expect(template.files.contains { $0.path == "en.lproj/pass.strings" })
        }
    }

    /// The two batch inputs of the loyalty sample hold the same 20 records, readable line by line.
    @Test func loyaltyBatchSamplesRead() throws {
        var names: [String: [String]] = [:]
        for file in ["loyalty.csv", "loyalty.jsonl"] {
            let url = Repository.templates.appendingPathComponent("samples/\(file)")
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var reader = try RecordReader(handle: handle, format: #require(RecordReader.Format(fileName: file)), file: file)
            var serials: [String] = []
            while let record = reader.next() {
                let value = try record.value.get()
                serials.append(try #require(value["serialNumber"]?.stringValue))
            }
            names[file] = serials
        }
        #expect(names["loyalty.csv"]?.count == 20)
        #expect(names["loyalty.csv"] == names["loyalty.jsonl"])
    }
}
