import Foundation
import HTTPServer
import PassModel

extension HTTPRequest {
    /// The body as a JSON object, or a 4xx `RequestError` that says what is wrong with it.
    func jsonObject(requireContentType: Bool = true) throws(RequestError) -> JSONObject {
        if requireContentType {
            let type = headers["content-type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" || type?.hasSuffix("+json") == true else {
                throw RequestError(status: .unsupportedMediaType, detail: "send the body as Content-Type: application/json")
            }
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw .badRequest("the body is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .badRequest("the body must be a JSON object, found \(value.kindName)")
        }
        return object
    }
}

extension JSONObject {
    /// A string member, `nil` when absent; a member of another type is a 400 naming it.
    func string(_ key: String) throws(RequestError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .badRequest("\(key) must be a string, found \(other.kindName)")
        }
    }

    /// An object member, `nil` when absent.
    func object(_ key: String) throws(RequestError) -> JSONObject? {
        switch self[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw .badRequest("\(key) must be an object, found \(other.kindName)")
        }
    }

    /// A boolean member, `nil` when absent.
    func bool(_ key: String) throws(RequestError) -> Bool? {
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw .badRequest("\(key) must be true or false, found \(other.kindName)")
        }
    }

    /// Refuses members other than `allowed`, so a typo is an error rather than silently ignored.
    func requireOnly(_ allowed: Set<String>) throws(RequestError) {
        if let unknown = keys.first(where: { !allowed.contains($0) }) {
            throw RequestError(status: .unprocessableContent, detail: "unknown member '\(unknown)'; allowed: \(allowed.sorted().joined(separator: ", "))")
        }
    }
}

extension JSONValue {
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// RFC 7231 HTTP-dates for `Last-Modified` / `If-Modified-Since`.
enum HTTPDate {
    static func format(_ date: Date) -> String {
        date.formatted(Date.HTTPFormatStyle())
    }

    /// `nil` when the header is not an HTTP-date (the header is then ignored, as RFC 7232 says).
    static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: Date.HTTPFormatStyle())
    }
}
