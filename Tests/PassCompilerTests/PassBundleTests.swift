import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing
import ZipArchive

/// `.pkpasses` bundles hold 1 to 10 signed passes, each still verifiable after bundling.
@Suite struct PassBundleTests {
    @Test(arguments: [1, 2, 10])
    func bundleReadsBackAndEachPassVerifies(count: Int) throws {
        try withTemporaryDirectory { folder in
            let compiler = try TestTemplate.compiler(for: TestTemplate.load(in: folder))
            let passes = try (1...count).map { index in
                try compiler.compile(PassInput(record: TestTemplate.baseRecord, recordName: "r\(index)", serialNumber: "BUNDLE-\(index)")).archive
            }
            let bundle = try ZipReader(data: PassBundle.make(passes))
            #expect(bundle.entries.map(\.name) == (1...count).map { "pass-\($0).pkpass" })
            let root = try ThrowawayPKI.shared().root
            for (index, entry) in bundle.entries.enumerated() {
                let bytes = try bundle.data(for: entry.name)
                #expect(bytes == passes[index])
                let report = PassVerifier.verify(archive: bytes, trustedRoots: [root])
                #expect(report.isValid, "\(entry.name): \(report.checks)")
                #expect(try Archive(bytes).passJSON()["serialNumber"] == .string("BUNDLE-\(index + 1)"))
            }
        }
    }

    @Test(arguments: [0, 11])
    func wrongCountIsRefused(count: Int) throws {
        let error = try #require(throws: PassCompilerError.self) {
            try PassBundle.make(Array(repeating: Data("x".utf8), count: count))
        }
        guard case .packaging(let message) = error else {
            Issue.record("expected packaging, got \(error)")
            return
        }
        #expect(message.contains("1 to 10 passes, not \(count)"))
    }
}
