/// A media type as `Content-Type` carries it (RFC 9110 §8.3.1): `type/subtype` and parameters such
/// as `charset` or a multipart `boundary`. Type, subtype and parameter names compare without case;
/// parameter values keep theirs (a boundary is case-sensitive).
///
/// ```swift
/// MediaType("multipart/form-data; boundary=\"xyz\"")?.parameters["boundary"]  // "xyz"
/// ```
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The top-level type, lowercased (`application`).
    public let type: String
    /// The subtype, lowercased (`json`, `vnd.apple.pkpass`).
    public let subtype: String
    /// The parameters by lowercased name, values unquoted.
    public let parameters: [String: String]

    /// Creates a media type; names are lowercased.
    public init(type: String, subtype: String, parameters: [String: String] = [:]) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = Dictionary(parameters.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Parses a `Content-Type` value; `nil` when it is not `token/token *(; token=(token|quoted-string))`.
    public init?(_ text: some StringProtocol) {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipWhitespace()
        guard let type = scanner.token(), scanner.take(UInt8(ascii: "/")), let subtype = scanner.token() else { return nil }
        var parameters: [String: String] = [:]
        while true {
            scanner.skipWhitespace()
            if scanner.atEnd { break }
            guard scanner.take(UInt8(ascii: ";")) else { return nil }
            scanner.skipWhitespace()
            if scanner.atEnd { break }  // a trailing `;`, which some clients send
            if scanner.peek == UInt8(ascii: ";") { continue }
            guard let name = scanner.token(), scanner.take(UInt8(ascii: "=")),
                  let value = scanner.peek == UInt8(ascii: "\"") ? scanner.quotedString() : scanner.token() else { return nil }
            // The first of a repeated parameter counts, as for a repeated query item.
            if parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
        }
        self.init(type: type, subtype: subtype, parameters: parameters)
    }

    /// The `charset` parameter, if any.
    public var charset: String? { parameters["charset"] }
    /// The `boundary` parameter of a multipart type, if any.
    public var boundary: String? { parameters["boundary"] }

    /// Whether a request's media type is this one (parameters aside). For `…/json` any structured
    /// syntax suffix `+json` of the same top-level type counts too (RFC 6839: `application/problem+json`
    /// is JSON); `*` as a subtype (`image/*`) takes any subtype of the type.
    public func accepts(_ other: MediaType) -> Bool {
        guard type == other.type else { return false }
        if subtype == "*" || subtype == other.subtype { return true }
        return !subtype.contains("+") && other.subtype.hasSuffix("+" + subtype)
    }

    /// `type/subtype` with its parameters, quoted where they need it.
    public var description: String {
        var text = "\(type)/\(subtype)"
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            let plain = !value.isEmpty && value.utf8.allSatisfy(Scanner.isTokenByte)
            text += "; \(name)=" + (plain ? value : "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"")
        }
        return text
    }

    /// `application/json`.
    public static let json = MediaType(type: "application", subtype: "json")
    /// `application/zip`.
    public static let zip = MediaType(type: "application", subtype: "zip")
    /// `application/x-www-form-urlencoded`, an HTML form's default.
    public static let urlEncodedForm = MediaType(type: "application", subtype: "x-www-form-urlencoded")
    /// `multipart/form-data`, an HTML form with files (RFC 7578).
    public static let multipartForm = MediaType(type: "multipart", subtype: "form-data")

    /// A cursor over the header's bytes: the grammar is ASCII, and a byte walk needs no grapheme breaking.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skipWhitespace() {
            while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// RFC 9110 `token`: one or more tchars.
        mutating func token() -> String? {
            let start = index
            while let byte = peek, Self.isTokenByte(byte) { index += 1 }
            return index == start ? nil : String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// RFC 9110 `quoted-string`, with `\` escapes; `nil` when it is not closed.
        mutating func quotedString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return nil }
                    index += 1
                    value.append(escaped)
                case 0..<0x20 where byte != UInt8(ascii: "\t"), 0x7F: return nil
                default: value.append(byte)
                }
            }
            return nil
        }

        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

extension HTTPRequest {
    /// The body's media type from `Content-Type`; `nil` when absent or malformed.
    public var contentType: MediaType? { headers["content-type"].flatMap { MediaType($0) } }
}
