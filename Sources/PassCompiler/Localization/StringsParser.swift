/// Reads the Apple `.strings` syntax: `"key" = "value";` pairs, `/* … */` and `// …` comments.
struct StringsParser {
    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1

    init(text: String, file: String) {
        scalars = Array(text.unicodeScalars)
        self.file = file
    }

    mutating func parseEntries() throws(PassCompilerError) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        var seen: [String: Int] = [:]
        while true {
            try skipTrivia()
            guard index < scalars.count else { return entries }
            let keyLine = line
            let key = try quoted(what: "a quoted key")
            try skipTrivia()
            try expect("=")
            try skipTrivia()
            let value = try quoted(what: "a quoted value")
            let valueLine = line
            try skipTrivia()
            try expect(";", reportingLine: valueLine)
            if let first = seen[key] {
                throw fail("key \"\(key)\" is defined twice (first on line \(first))", line: keyLine)
            }
            seen[key] = keyLine
            entries.append((key, value))
        }
    }

    private func fail(_ message: String, line: Int? = nil) -> PassCompilerError {
        .invalidStrings(file: file, line: line ?? self.line, message: message)
    }

    private mutating func advance() -> Unicode.Scalar {
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" { line += 1 }
        return scalar
    }

    /// `reportingLine` names the line the symbol belongs on: a missing `;` is reported where its
    /// value ends, not on the later line where the next token was found.
    private mutating func expect(_ symbol: Unicode.Scalar, reportingLine: Int? = nil) throws(PassCompilerError) {
        guard index < scalars.count, scalars[index] == symbol else {
            let found = index < scalars.count ? "'\(scalars[index])'" : "the end of the file"
            throw fail("expected '\(symbol)', found \(found)", line: reportingLine)
        }
        _ = advance()
    }

    private mutating func skipTrivia() throws(PassCompilerError) {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                _ = advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = line
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { _ = advance() }
                guard index + 1 < scalars.count else { throw fail("comment opened here is never closed", line: start) }
                index += 2
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count, scalars[index] != "\n" { _ = advance() }
            } else {
                return
            }
        }
    }

    private mutating func quoted(what: String) throws(PassCompilerError) -> String {
        guard index < scalars.count, scalars[index] == "\"" else {
            let found = index < scalars.count ? "'\(scalars[index])'" : "the end of the file"
            throw fail("expected \(what), found \(found)")
        }
        let start = line
        _ = advance()
        var out = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = advance()
            switch scalar {
            case "\"":
                return String(out)
            case "\\":
                guard index < scalars.count else { break }
                let escaped = advance()
                switch escaped {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "U", "u":
                    guard index + 4 <= scalars.count,
                          let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
                          let decoded = Unicode.Scalar(code) else {
                        throw fail("\\\(escaped) must be followed by four hex digits")
                    }
                    index += 4
                    out.append(decoded)
                default: out.append(escaped)
                }
            default:
                out.append(scalar)
            }
        }
        throw fail("string opened here is never closed", line: start)
    }
}
