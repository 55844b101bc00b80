import Foundation
import HTTPServer
import WalletCore

/// The fields of a posted form: `application/x-www-form-urlencoded`, or `multipart/form-data` for uploads.
struct ConsoleForm: Sendable {
    /// One uploaded file.
    struct File: Sendable {
        let fileName: String
        let data: Data
    }

    private(set) var fields: [String: String] = [:]
    private(set) var files: [String: File] = [:]

    subscript(name: String) -> String? { fields[name] }

    init(_ request: HTTPRequest) throws(HTTPError) {
        let type = request.headers["content-type"] ?? ""
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch media {
        case "application/x-www-form-urlencoded":
            fields = Self.urlEncoded(String(decoding: request.body, as: UTF8.self))
        case "multipart/form-data":
            guard let boundary = Self.parameter("boundary", of: type) else {
                throw HTTPError(.badRequest, "Content-Type multipart/form-data has no boundary")
            }
            try parseMultipart(request.body, boundary: boundary)
        default:
            throw HTTPError(.unsupportedMediaType, "send the form as application/x-www-form-urlencoded or multipart/form-data")
        }
    }

    /// `a=1&b=two+words` → fields; `+` is a space, `%XX` a byte.
    static func urlEncoded(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                PercentDecoding.decode(text, plusIsSpace: true) ?? ""
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    private static func parameter(_ name: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return nil
    }

    /// RFC 7578: parts separated by `--boundary`, each with its headers, a blank line and its bytes.
    private mutating func parseMultipart(_ body: Data, boundary: String) throws(HTTPError) {
        let delimiter = Data("--\(boundary)".utf8)
        let blankLine = Data("\r\n\r\n".utf8)
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else {
            throw HTTPError(.badRequest, "the multipart body has no part with the boundary its Content-Type names")
        }
        cursor = first.upperBound
        while true {
            // After a delimiter: "--" ends the body, else CRLF and a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { throw HTTPError(.badRequest, "malformed multipart body") }
            cursor += 2
            guard let headerEnd = body.range(of: blankLine, in: cursor..<body.endIndex),
                  let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex) else {
                throw HTTPError(.badRequest, "malformed multipart body: a part is not closed by its boundary")
            }
            let headers = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            let content = body[headerEnd.upperBound..<next.lowerBound]
            let disposition = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-disposition:") }.map(String.init) ?? ""
            guard let name = Self.parameter("name", of: disposition) else { throw HTTPError(.badRequest, "a multipart part has no name") }
            if let fileName = Self.parameter("filename", of: disposition) {
                files[name] = File(fileName: fileName, data: Data(content))
            } else if fields[name] == nil {
                fields[name] = String(decoding: content, as: UTF8.self)
            }
            cursor = next.upperBound
        }
    }
}
