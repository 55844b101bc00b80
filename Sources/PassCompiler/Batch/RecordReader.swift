import Foundation
import PassModel

/// Streams the records of a batch input — CSV with a header row, or JSON Lines — one at a time, so
/// memory stays flat however many records there are. A record that cannot be read comes back as an
/// error naming its line; the reader goes on with the next one.
public struct RecordReader {
    /// The input formats.
    public enum Format: String, Sendable, CaseIterable {
        case csv
        case jsonLines = "jsonl"

        /// Guesses from the file extension (`.csv`, `.jsonl`, `.ndjson`).
        public init?(fileName: String) {
            switch (fileName as NSString).pathExtension.lowercased() {
            case "csv": self = .csv
            case "jsonl", "ndjson": self = .jsonLines
            default: return nil
            }
        }
    }

    /// One input record: where it came from, and either its value or why it could not be read.
    public struct Record: Sendable {
        /// The line it starts on (1-based).
        public let line: Int
        /// `"cards.csv line 12"`.
        public let name: String
        /// The record, or the error that names what is wrong with it.
        public let value: Result<JSONValue, PassCompilerError>
    }

    private enum Source {
        case csv(CSVReader, header: [String])
        case jsonLines(ByteReader)
    }

    private var source: Source
    private let file: String
    private var line = 0

    /// Opens `handle`; `file` names it in messages. Reads the CSV header row at once.
    public init(handle: FileHandle, format: Format, file: String) throws(PassCompilerError) {
        self.file = file
        switch format {
        case .csv:
            var reader = CSVReader(handle: handle, file: file)
            let headerRow: (line: Int, fields: [String])?
            do {
                headerRow = try reader.nextRow()
            } catch {
                throw .invalidRecord(record: "\(file) line 1", message: "\(error)")
            }
            guard var header = headerRow?.fields, !header.allSatisfy(\.isEmpty) else {
                throw .invalidRecord(record: "\(file) line 1", message: "the CSV has no header row naming the columns")
            }
            // Excel's "CSV UTF-8" starts with a byte order mark; it is not part of the first column's name.
            if header[0].hasPrefix("\u{FEFF}") { header[0].removeFirst() }
            if let duplicate = Dictionary(grouping: header, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw .invalidRecord(record: "\(file) line 1", message: "column \"\(duplicate)\" appears twice in the header")
            }
            source = .csv(reader, header: header)
        case .jsonLines:
            source = .jsonLines(ByteReader(handle: handle))
        }
    }

    /// Bytes read so far, for progress.
    public var bytesConsumed: Int {
        switch source {
        case .csv(let reader, _): return reader.bytesConsumed
        case .jsonLines(let reader): return reader.bytesConsumed
        }
    }

    /// The next record, `nil` at the end of the input.
    public mutating func next() -> Record? {
        switch source {
        case .csv(var reader, let header):
            defer { source = .csv(reader, header: header) }
            return nextCSV(&reader, header: header)
        case .jsonLines(var reader):
            defer { source = .jsonLines(reader) }
            return nextJSONLine(&reader)
        }
    }

    private func nextCSV(_ reader: inout CSVReader, header: [String]) -> Record? {
        let row: (line: Int, fields: [String])?
        do {
            row = try reader.nextRow()
        } catch let error as PassCompilerError {
            return Record(line: 0, name: file, value: .failure(error))
        } catch {
            return Record(line: 0, name: file, value: .failure(.invalidRecord(record: file, message: "\(error)")))
        }
        guard let row else { return nil }
        let name = "\(file) line \(row.line)"
        guard row.fields.count == header.count else {
            return Record(line: row.line, name: name, value: .failure(.invalidRecord(
                record: name, message: "has \(row.fields.count) fields but the header names \(header.count) columns")))
        }
        var object = JSONObject()
        for (column, field) in zip(header, row.fields) where !field.isEmpty {
            object[column] = .string(field)
        }
        return Record(line: row.line, name: name, value: .success(.object(object)))
    }

    private mutating func nextJSONLine(_ reader: inout ByteReader) -> Record? {
        while true {
            var bytes: [UInt8] = []
            var sawAny = false
            do {
                while let byte = try reader.next() {
                    sawAny = true
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
            } catch {
                return Record(line: line + 1, name: file, value: .failure(.invalidRecord(record: file, message: "read failed: \(error)")))
            }
            guard sawAny else { return nil }
            line += 1
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let name = "\(file) line \(line)"
            do {
                let value = try JSONValue.parse(Data(bytes))
                guard case .object = value else {
                    return Record(line: line, name: name, value: .failure(.invalidRecord(record: name, message: "must be a JSON object, found \(value.kind)")))
                }
                return Record(line: line, name: name, value: .success(value))
            } catch {
                return Record(line: line, name: name, value: .failure(.invalidRecord(record: name, message: "is not valid JSON: \(error)")))
            }
        }
    }
}
