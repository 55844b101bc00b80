import Foundation
import Testing

/// `passwright batch`: many records, one pass each; a bad record is named by its line and does not
/// stop the others.
@Suite("batch")
struct BatchTests {
    /// A CSV for the test template with `count` records; rows are numbered from line 2.
    static func csv(count: Int, serialPrefix: String = "B", replacing badRows: [Int: String] = [:]) -> Data {
        var text = TestTemplate.columns.joined(separator: ",") + "\n"
        for index in 1...count {
            let line = index + 1
            text += badRows[line] ?? TestTemplate.csvRow(serial: "\(serialPrefix)-\(index)", name: "Member \(index)", points: index * 10)
            text += "\n"
        }
        return Data(text.utf8)
    }

    static func passes(in folder: URL, extension name: String = "pkpass") -> [String] {
        folder.fileNames().filter { $0.hasSuffix(".\(name)") }
    }

    @Test("10,000 CSV records with a bad row at line 5002: that line is named and the other 9,999 are built")
    func tenThousandWithOneBadRow() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            // Line 5002 is record 5001; its member.name cell is empty, and empty cells count as missing.
            let input = folder.appendingPathComponent("members.csv")
            try Self.csv(count: 10_000, replacing: [5002: "B-5001,,50010"]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path, "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            let errors = result.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
            #expect(errors.count == 1, "\(result)")
            #expect(errors.first?.contains("members.csv line 5002:") == true, "\(result)")
            #expect(errors.first?.contains("{{member.name}}") == true, "\(result)")
            #expect(result.err.contains("Built 9999 passes"), "\(result)")

            let built = Self.passes(in: out)
            #expect(built.count == 9_999)
            #expect(out.fileNames().count == 9_999, "nothing but passes (no temporary files) may be left")
            #expect(!built.contains("B-5001.pkpass"))
            for serial in ["B-1", "B-5000", "B-5002", "B-10000"] {
                let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("\(serial).pkpass"), rootCA: identities.rootCA)
                #expect(verify.status == 0, "\(serial): \(verify)")
                #expect(verify.out.contains("valid storeCard \(serial)"), "\(verify)")
            }
        }
    }

    @Test("--jobs 1 and --jobs 2 both build every record", arguments: [1, 2])
    func jobs(count: Int) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let input = folder.appendingPathComponent("members.csv")
            try Self.csv(count: 40).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path,
                                            "--jobs", String(count), "--identities", identities.root.path])
            #expect(result.status == 0, "\(result)")
            #expect(result.err.contains("Built 40 passes"), "\(result)")
            #expect(!result.err.contains("\u{1B}"), "no progress bar control characters when stderr is not a terminal")
            #expect(Set(Self.passes(in: out)) == Set((1...40).map { "B-\($0).pkpass" }))
            let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("B-40.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("JSON Lines: a line that is not JSON is named and the rest are built")
    func jsonLines() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            var lines = (1...6).map { String(decoding: TestTemplate.record(serial: "J-\($0)"), as: UTF8.self) }
            lines[3] = #"{"serialNumber": "J-4", "member": {"name": "Broken"#   // line 4
            let input = folder.appendingPathComponent("members.jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path, "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("Error: members.jsonl line 4: is not valid JSON"), "\(result)")
            #expect(Set(Self.passes(in: out)) == ["J-1.pkpass", "J-2.pkpass", "J-3.pkpass", "J-5.pkpass", "J-6.pkpass"])
        }
    }

    @Test("JSON Lines from standard input with --format")
    func jsonLinesFromStandardInput() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let lines = (1...3).map { String(decoding: TestTemplate.record(serial: "S-\($0)"), as: UTF8.self) }
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", "-", "--format", "jsonl", "--out-dir", out.path, "--identities", identities.root.path],
                                           stdin: Data(lines.joined(separator: "\n").utf8))
            #expect(result.status == 0, "\(result)")
            #expect(Set(Self.passes(in: out)) == ["S-1.pkpass", "S-2.pkpass", "S-3.pkpass"])
        }
    }

    @Test("a CSV row with the wrong number of fields is named by its line")
    func wrongFieldCount() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let input = folder.appendingPathComponent("members.csv")
            try Self.csv(count: 5, replacing: [4: "B-3,Too,Many,Fields"]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path, "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("Error: members.csv line 4: has 4 fields but the header names 3 columns"), "\(result)")
            #expect(Self.passes(in: out).count == 4)
        }
    }

    @Test("--bundle 10 on 25 records writes 3 .pkpasses of valid passes")
    func bundles() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let input = folder.appendingPathComponent("members.csv")
            try Self.csv(count: 25).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path,
                                            "--bundle", "10", "--identities", identities.root.path])
            #expect(result.status == 0, "\(result)")
            let bundles = Self.passes(in: out, extension: "pkpasses")
            #expect(bundles.count == 3, "\(out.fileNames())")
            #expect(Self.passes(in: out).isEmpty, "bundled passes are not also written alone")

            var entries = 0
            for bundle in bundles {
                let listing = try await Subprocess.tool("unzip", ["-Z1", out.appendingPathComponent(bundle).path])
                #expect(listing.status == 0, "\(listing)")
                let names = listing.out.split(separator: "\n")
                #expect(names.allSatisfy { $0.hasSuffix(".pkpass") }, "\(names)")
                entries += names.count
            }
            #expect(entries == 25)

            let unpacked = folder.appendingPathComponent("unpacked")
            let unzip = try await Subprocess.tool("unzip", ["-q", out.appendingPathComponent(try #require(bundles.first)).path, "-d", unpacked.path])
            #expect(unzip.status == 0, "\(unzip)")
            let first = try #require(Self.passes(in: unpacked).first)
            let pass = unpacked.appendingPathComponent(first)
            let verify = try await PassChecks.passwrightVerify(pass, rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
            let openssl = try await PassChecks.opensslVerify(pass, rootCA: identities.rootCA, workspace: folder)
            #expect(openssl.status == 0, "\(openssl)")
        }
    }

    @Test("a duplicate serial number fails that record unless --overwrite")
    func duplicateSerial() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let input = folder.appendingPathComponent("members.csv")
            // Records 1 to 6, then record 3 again at line 8.
            try Self.csv(count: 7, replacing: [8: TestTemplate.csvRow(serial: "B-3", name: "Second Three", points: 1)]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let arguments = ["batch", template.path, "--input", input.path, "--out-dir", out.path, "--identities", identities.root.path]

            let first = try await CLI.run(arguments)
            #expect(first.status == 1, "\(first)")
            let errors = first.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
            #expect(errors.count == 1, "\(first)")
            #expect(errors.first?.contains("serial number B-3 already exists") == true, "\(first)")
            #expect(Self.passes(in: out).count == 6)

            let again = try await CLI.run(arguments)
            #expect(again.status == 1, "an existing pass is not replaced without --overwrite: \(again)")
            #expect(again.err.contains("Built 0 passes"), "\(again)")

            let overwritten = try await CLI.run(arguments + ["--overwrite"])
            #expect(overwritten.status == 0, "\(overwritten)")
            #expect(overwritten.err.contains("Built 7 passes"), "\(overwritten)")
            #expect(Self.passes(in: out).count == 6)
            #expect(out.fileNames().count == 6, "no temporary files may be left")
        }
    }

    @Test("records sharing a serial number built in parallel: exactly one of each pair is written")
    func duplicateSerialsInParallel() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            var text = TestTemplate.columns.joined(separator: ",") + "\n"
            for pair in 1...30 {
                text += TestTemplate.csvRow(serial: "P-\(pair)", name: "First", points: 1) + "\n"
                text += TestTemplate.csvRow(serial: "P-\(pair)", name: "Second", points: 2) + "\n"
            }
            let input = folder.appendingPathComponent("pairs.csv")
            try Data(text.utf8).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path,
                                            "--jobs", "8", "--identities", identities.root.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("Built 30 passes"), "\(result)")
            #expect(result.err.contains("30 records failed"), "\(result)")
            #expect(result.err.split(separator: "\n").filter { $0.contains("already exists") }.count == 30, "\(result)")
            #expect(Self.passes(in: out).count == 30)
        }
    }

    @Test("a serial number with ../ stays inside the output folder, percent-encoded")
    func serialCannotEscape() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let template = try TestTemplate.write(in: folder)
            let input = folder.appendingPathComponent("members.jsonl")
            try TestTemplate.record(serial: "../../escape").write(to: input)
            let out = folder.appendingPathComponent("nested/out")
            let result = try await CLI.run(["batch", template.path, "--input", input.path, "--out-dir", out.path, "--identities", identities.root.path])
            #expect(result.status == 0, "\(result)")
            #expect(out.fileNames() == ["%2E.%2F..%2Fescape.pkpass"])
            #expect(folder.fileNames() == ["card", "members.jsonl", "nested"])
            #expect(folder.appendingPathComponent("nested").fileNames() == ["out"])
            let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("%2E.%2F..%2Fescape.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.out.contains("valid storeCard ../../escape"), "the pass keeps its real serial number: \(verify)")
        }
    }
}
