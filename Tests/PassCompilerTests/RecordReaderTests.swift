import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing

/// Batch inputs stream record by record; a bad record is an error naming its line while the rest
/// still read.
@Suite struct RecordReaderTests {
    static func read(_ text: String, file: String, in folder: URL) throws -> [RecordReader.Record] {
        let url = folder.appendingPathComponent(file)
        try Data(text.utf8).write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var reader = try RecordReader(handle: handle, format: #require(RecordReader.Format(fileName: file)), file: file)
        var records: [RecordReader.Record] = []
        while let record = reader.next() { records.append(record) }
        #expect(reader.bytesConsumed == text.utf8.count)
        return records
    }

    @Test(arguments: ["\n", "\r\n"])
    func csvQuotingNewlinesAndShortRows(newline: String) throws {
        try withTemporaryDirectory { folder in
            let rows = [
                "id,member.name,note",
                "1,\"Smith, Ada\",\"She said \"\"hi\"\"\"",
                "2,\"Line one\(newline)Line two\",x",
                "3,Bob,plain",
                "4,Eve",
                "5,,no name",
                "6,Zed,last",
            ]
            let records = try Self.read(rows.joined(separator: newline) + newline, file: "people.csv", in: folder)
            #expect(records.map(\.line) == [2, 3, 5, 6, 7, 8])
            #expect(records.map(\.name) == [2, 3, 5, 6, 7, 8].map { "people.csv line \($0)" })

            let first = try records[0].value.get()
            #expect(first == .object(["id": .string("1"), "member.name": .string("Smith, Ada"), "note": .string("She said \"hi\"")]))
            #expect(try records[1].value.get()["member.name"] == .string("Line one\(newline)Line two"))
            #expect(try records[2].value.get()["note"] == .string("plain"))

            guard case .failure(let error) = records[3].value, case .invalidRecord(let record, let message) = error else {
                Issue.record("the short row should fail: \(records[3].value)")
                return
            }
            #expect(record == "people.csv line 6")
            #expect(message.contains("has 2 fields but the header names 3 columns"))

            #expect(try records[4].value.get() == .object(["id": .string("5"), "note": .string("no name")]))
            #expect(try records[5].value.get()["member.name"] == .string("Zed"))
        }
    }

    /// Excel's "CSV UTF-8" export starts with a byte order mark; the first column must keep its name.
    @Test func csvByteOrderMarkIsNotPartOfTheFirstColumn() throws {
        try withTemporaryDirectory { folder in
            let records = try Self.read("\u{FEFF}serialNumber,name\nS-1,Ada\n", file: "excel.csv", in: folder)
            #expect(records.count == 1)
            #expect(try records[0].value.get() == .object(["serialNumber": .string("S-1"), "name": .string("Ada")]))
        }
    }

    @Test func csvWithoutHeaderOrWithDuplicateColumnsIsRefused() throws {
        try withTemporaryDirectory { folder in
            for (text, message) in [("", "no header row"), ("id,name,id\n1,a,2\n", "column \"id\" appears twice")] {
                let url = folder.appendingPathComponent("bad.csv")
                try Data(text.utf8).write(to: url)
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                let error = try #require(throws: PassCompilerError.self) { try RecordReader(handle: handle, format: .csv, file: "bad.csv") }
                #expect("\(error)".hasPrefix("bad.csv line 1: ") && "\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func jsonLinesSkipBlankLinesAndReportBadOnes() throws {
        try withTemporaryDirectory { folder in
            let text = "{\"a\": 1}\n\n   \n{bad\n[1, 2]\r\n{\"a\": 2, \"b\": {\"c\": \"d\"}}"
            let records = try Self.read(text, file: "cards.jsonl", in: folder)
            #expect(records.map(\.line) == [1, 4, 5, 6])
            #expect(try records[0].value.get() == .object(["a": .number(1)]))
            guard case .failure(let bad) = records[1].value, case .failure(let array) = records[2].value else {
                Issue.record("lines 4 and 5 should fail")
                return
            }
            #expect("\(bad)".hasPrefix("cards.jsonl line 4: is not valid JSON"))
            #expect("\(array)".hasPrefix("cards.jsonl line 5: must be a JSON object, found an array"))
            #expect(try records[3].value.get()["b"]?["c"] == .string("d"))
        }
    }

    @Test(arguments: [("cards.csv", RecordReader.Format.csv), ("cards.JSONL", .jsonLines), ("cards.ndjson", .jsonLines)])
    func formatFromFileName(file: String, format: RecordReader.Format) {
        #expect(RecordReader.Format(fileName: file) == format)
        #expect(RecordReader.Format(fileName: "cards.txt") == nil)
    }

    /// The CSV sample feeds the loyalty template end to end.
    @Test func loyaltyCSVCompiles() throws {
        let template = try Template.load(from: Repository.templates.appendingPathComponent("loyalty", isDirectory: true))
        let compiler = try TestTemplate.compiler(for: template)
        let url = Repository.templates.appendingPathComponent("samples/loyalty.csv")
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var reader = try RecordReader(handle: handle, format: .csv, file: "loyalty.csv")
        var built = 0
        while let record = reader.next() {
            let compiled = try compiler.compile(PassInput(record: record.value.get(), recordName: record.name))
            #expect(compiled.serialNumber.hasPrefix("BL-"))
            built += 1
        }
        #expect(built == 20)
    }
}
