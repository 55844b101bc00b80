import Foundation

/// Streams an RFC 4180 CSV file row by row, remembering the line each row starts on so a bad row can be
/// reported as "line 5,012" rather than "somewhere in the file".
struct CSVReader {
    private var reader: ByteReader
    private var line = 1
    private let file: String

    init(handle: FileHandle, file: String) {
        reader = ByteReader(handle: handle)
        self.file = file
    }

    var bytesConsumed: Int { reader.bytesConsumed }

    /// The next row with the line it starts on, or `nil` at the end of the input. Blank lines are skipped.
    mutating func nextRow() throws -> (line: Int, fields: [String])? {
        while true {
            guard try reader.peek() != nil else { return nil }
            let start = line
            let fields = try readRow(startLine: start)
            if fields == [""] { continue }
            return (start, fields)
        }
    }

    private mutating func readRow(startLine: Int) throws -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var fieldStarted = false
        func finish(_ bytes: [UInt8]) throws -> String {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw PassCompilerError.invalidRecord(record: "\(file) line \(startLine)", message: "field \(fields.count + 1) is not valid UTF-8")
            }
            return text
        }
        while let byte = try reader.next() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try reader.peek() == UInt8(ascii: "\"") {
                        _ = try reader.next()
                        field.append(byte)
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where !fieldStarted:
                quoted = true
                fieldStarted = true
            case UInt8(ascii: ","):
                fields.append(try finish(field))
                field.removeAll(keepingCapacity: true)
                fieldStarted = false
            case UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(try finish(field))
                return fields
            default:
                field.append(byte)
                fieldStarted = true
            }
        }
        if quoted {
            throw PassCompilerError.invalidRecord(record: "\(file) line \(startLine)", message: "a quoted field is never closed")
        }
        fields.append(try finish(field))
        return fields
    }
}
