import Foundation
import PasswrightTesting
import Testing

/// `passwright batch`: many records, one pass each; a bad record is named by its line and does not
/// stop the others.
@Suite("batch")
struct BatchTests {
    static let loyalty = Samples.template("loyalty")

    static func passes(in folder: URL, extension name: String = "pkpass") -> [String] {
        folder.fileNames().filter { $0.hasSuffix(".\(name)") }
    }

    static func errorLines(_ result: ProcessResult) -> [Substring] {
        result.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
    }

    static func batch(_ input: String, out: URL, _ extra: [String] = [], stdin: Data? = nil) async throws -> ProcessResult {
        let identities = try await DevIdentities.shared.folder()
        return try await CLI.run(["batch", loyalty.path, "--input", input, "--out-dir", out.path, "--identities", identities.root.path] + extra, stdin: stdin)
    }

    @Test("10,000 CSV records with a bad row at line 5002: that line is named and the other 9,999 are built")
    func tenThousandWithOneBadRow() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            // Line 5002 holds record 5001; its member.name cell is empty, and empty cells count as missing.
            let input = folder.appendingPathComponent("members.csv")
            try Samples.loyaltyCSV(count: 10_000, changes: [5002: ["member.name": ""]]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out)
            #expect(result.status == 1, "\(result)")
            let errors = Self.errorLines(result)
            #expect(errors.count == 1, "\(result)")
            #expect(errors.first?.contains("members.csv line 5002:") == true, "\(result)")
            #expect(errors.first?.contains("{{member.name}}") == true, "\(result)")
            #expect(result.err.contains("Built 9999 passes"), "\(result)")

            let built = Self.passes(in: out)
            #expect(built.count == 9_999)
            #expect(out.fileNames().count == 9_999, "nothing but passes (no temporary files) may be left")
            #expect(!built.contains("L-5001.pkpass"))
            for serial in ["L-1", "L-5000", "L-5002", "L-10000"] {
                let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("\(serial).pkpass"), rootCA: identities.rootCA)
                #expect(verify.status == 0, "\(serial): \(verify)")
                #expect(verify.out.contains("valid storeCard \(serial)"), "\(verify)")
            }
        }
    }

    @Test("--jobs 1, --jobs 2 and -j 2 all build every record", arguments: [["--jobs", "1"], ["--jobs", "2"], ["-j", "2"]])
    func jobs(option: [String]) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let input = folder.appendingPathComponent("members.csv")
            try Samples.loyaltyCSV(count: 40).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out, option)
            #expect(result.status == 0, "\(result)")
            #expect(result.err.contains("Built 40 passes"), "\(result)")
            #expect(!result.err.contains("\u{1B}"), "no progress bar control characters when stderr is not a terminal")
            #expect(Set(Self.passes(in: out)) == Set((1...40).map { "L-\($0).pkpass" }))
            let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("L-40.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("one job with spare cores (prepared, signed and written on separate tasks): failures in every stage are named in line order and every other record is built")
    func oneJobFailuresInEveryStage() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            // Lines 3 and 150 fail before signing (an empty member.name); line 201 repeats line 2's
            // serial number, so it is built and signed and fails when written; line 202 is built after it.
            let input = folder.appendingPathComponent("members.csv")
            try Samples.loyaltyCSV(count: 201, changes: [3: ["member.name": ""], 150: ["member.name": ""], 201: ["serialNumber": "L-1"]]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out, ["--jobs", "1"])
            #expect(result.status == 1, "\(result)")
            let errors = Self.errorLines(result)
            #expect(errors.count == 3, "\(result)")
            let lines = errors.compactMap { error in error.firstRange(of: "members.csv line ").map { Int(error[$0.upperBound...].prefix { $0.isNumber }) } ?? nil }
            #expect(lines == [3, 150, 201], "\(result)")
            #expect(errors.last?.contains("already exists") == true, "\(result)")
            #expect(result.err.contains("Built 198 passes"), "\(result)")
            let expected = Set((1...201).filter { ![2, 149, 200].contains($0) }.map { "L-\($0).pkpass" })
            #expect(Set(Self.passes(in: out)) == expected)
            #expect(out.fileNames().count == 198, "nothing but passes (no temporary files) may be left")
            let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("L-201.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test("the sample batch inputs build every record", arguments: ["loyalty.csv", "loyalty.jsonl"])
    func sampleInputs(file: String) async throws {
        try await withScratch { folder in
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(Samples.sample(file).path, out: out)
            #expect(result.status == 0, "\(result)")
            let built = Self.passes(in: out)
            #expect(built.count == 20, "\(built)")
            // BL-000006's name is a quoted CSV cell holding a comma and quotes; it must arrive whole.
            let passJSON = try await Subprocess.tool("unzip", ["-p", out.appendingPathComponent("BL-000006.pkpass").path, "pass.json"])
            #expect(passJSON.status == 0, "\(passJSON)")
            #expect(passJSON.out.contains(#"Okafor, Ada \"Ace\""#), "\(passJSON.out)")
        }
    }

    @Test("JSON Lines: a line that is not JSON is named and the rest are built")
    func jsonLines() async throws {
        try await withScratch { folder in
            var lines = try String(contentsOf: Samples.sample("loyalty.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
            let serials = try lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return try (object?["serialNumber"] as? String).orThrow("loyalty.jsonl: a line without serialNumber")
            }
            lines[3] = String(lines[3].dropLast(2))   // line 4 loses its closing characters
            let input = folder.appendingPathComponent("members.jsonl")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out)
            #expect(result.status == 1, "\(result)")
            #expect(Self.errorLines(result).count == 1, "\(result)")
            #expect(result.err.contains("Error: members.jsonl line 4: is not valid JSON"), "\(result)")
            var expected = Set(serials.map { "\($0).pkpass" })
            expected.remove("\(serials[3]).pkpass")
            #expect(Set(Self.passes(in: out)) == expected)
        }
    }

    @Test("JSON Lines from standard input with --format, last line without a newline")
    func jsonLinesFromStandardInput() async throws {
        try await withScratch { folder in
            let lines = try (1...3).map { String(decoding: try Samples.loyaltyRecord(["serialNumber": "S-\($0)"]), as: UTF8.self) }
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch("-", out: out, ["--format", "jsonl"], stdin: Data(lines.joined(separator: "\n").utf8))
            #expect(result.status == 0, "\(result)")
            #expect(Set(Self.passes(in: out)) == ["S-1.pkpass", "S-2.pkpass", "S-3.pkpass"])
        }
    }

    @Test("a CSV row with the wrong number of fields is named by its line")
    func wrongFieldCount() async throws {
        try await withScratch { folder in
            let input = folder.appendingPathComponent("members.csv")
            try Samples.loyaltyCSV(count: 5, lines: [4: "L-3,Too,Few"]).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out)
            #expect(result.status == 1, "\(result)")
            let columns = try Samples.loyaltyColumnCount()
            #expect(result.err.contains("Error: members.csv line 4: has 3 fields but the header names \(columns) columns"), "\(result)")
            #expect(Set(Self.passes(in: out)) == ["L-1.pkpass", "L-2.pkpass", "L-4.pkpass", "L-5.pkpass"])
        }
    }

    @Test("--bundle 10 on 25 records writes 3 .pkpasses of valid passes")
    func bundles() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let input = folder.appendingPathComponent("members.csv")
            try Samples.loyaltyCSV(count: 25).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out, ["--bundle", "10"])
            #expect(result.status == 0, "\(result)")
            let bundles = Self.passes(in: out, extension: "pkpasses")
            #expect(bundles.count == 3, "\(out.fileNames())")
            #expect(Self.passes(in: out).isEmpty, "bundled passes are not also written alone")

            var sizes: [Int] = []
            for bundle in bundles {
                let listing = try await Subprocess.tool("unzip", ["-Z1", out.appendingPathComponent(bundle).path])
                #expect(listing.status == 0, "\(listing)")
                let names = listing.out.split(separator: "\n")
                #expect(names.allSatisfy { $0.hasSuffix(".pkpass") }, "\(names)")
                sizes.append(names.count)
            }
            #expect(sizes.sorted() == [5, 10, 10])

            let unpacked = folder.appendingPathComponent("unpacked")
            let unzip = try await Subprocess.tool("unzip", ["-q", out.appendingPathComponent(try #require(bundles.first)).path, "-d", unpacked.path])
            #expect(unzip.status == 0, "\(unzip)")
            let pass = unpacked.appendingPathComponent(try #require(Self.passes(in: unpacked).first))
            let verify = try await PassChecks.passwrightVerify(pass, rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
            let openssl = try await PassChecks.opensslVerify(pass, rootCA: identities.rootCA, workspace: folder)
            #expect(openssl.status == 0, "\(openssl)")
        }
    }

    @Test("a duplicate serial number fails that record unless --overwrite")
    func duplicateSerial() async throws {
        try await withScratch { folder in
            let input = folder.appendingPathComponent("members.csv")
            // Records 1 to 6, then record 3's serial again at line 8.
            try Samples.loyaltyCSV(count: 7, changes: [8: ["serialNumber": "L-3"]]).write(to: input)
            let out = folder.appendingPathComponent("out")

            let first = try await Self.batch(input.path, out: out)
            #expect(first.status == 1, "\(first)")
            let errors = Self.errorLines(first)
            #expect(errors.count == 1, "\(first)")
            #expect(errors.first?.contains("serial number L-3 already exists") == true, "\(first)")
            #expect(Self.passes(in: out).count == 6)

            let again = try await Self.batch(input.path, out: out)
            #expect(again.status == 1, "an existing pass is not replaced without --overwrite: \(again)")
            #expect(again.err.contains("Built 0 passes"), "\(again)")

            let overwritten = try await Self.batch(input.path, out: out, ["--overwrite"])
            #expect(overwritten.status == 0, "\(overwritten)")
            #expect(overwritten.err.contains("Built 7 passes"), "\(overwritten)")
            #expect(out.fileNames().count == 6, "six passes and no temporary files")
        }
    }

    @Test("records sharing a serial number built in parallel: exactly one of each pair is written")
    func duplicateSerialsInParallel() async throws {
        try await withScratch { folder in
            // Records 2k-1 and 2k (lines 2k and 2k+1) share the serial number P-k.
            var changes: [Int: [String: String]] = [:]
            for record in 1...60 { changes[record + 1] = ["serialNumber": "P-\((record + 1) / 2)"] }
            let input = folder.appendingPathComponent("pairs.csv")
            try Samples.loyaltyCSV(count: 60, changes: changes).write(to: input)
            let out = folder.appendingPathComponent("out")
            let result = try await Self.batch(input.path, out: out, ["--jobs", "8"])
            #expect(result.status == 1, "\(result)")
            #expect(result.err.contains("Built 30 passes"), "\(result)")
            #expect(result.err.contains("30 records failed"), "\(result)")
            #expect(Self.errorLines(result).filter { $0.contains("already exists") }.count == 30, "\(result)")
            #expect(Set(Self.passes(in: out)) == Set((1...30).map { "P-\($0).pkpass" }))
        }
    }

    @Test("a serial number with ../ stays inside the output folder, percent-encoded")
    func serialCannotEscape() async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { folder in
            let input = folder.appendingPathComponent("members.jsonl")
            try Samples.loyaltyRecord(["serialNumber": "../../escape"]).write(to: input)
            let out = folder.appendingPathComponent("nested/out")
            let result = try await Self.batch(input.path, out: out)
            #expect(result.status == 0, "\(result)")
            #expect(out.fileNames() == ["%2E.%2F..%2Fescape.pkpass"])
            #expect(folder.fileNames() == ["members.jsonl", "nested"])
            #expect(folder.appendingPathComponent("nested").fileNames() == ["out"])
            let verify = try await PassChecks.passwrightVerify(out.appendingPathComponent("%2E.%2F..%2Fescape.pkpass"), rootCA: identities.rootCA)
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.out.contains("valid storeCard ../../escape"), "the pass keeps its real serial number: \(verify)")
        }
    }
}
