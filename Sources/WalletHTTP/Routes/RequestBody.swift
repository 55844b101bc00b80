import Foundation
import HTTPServer
import PassModel
import WalletCore

extension HTTPRequest {
    /// The body as a JSON object, or a `400` `HTTPError` that says what is wrong with it. Its media type
    /// was checked by the router against the route's declared body (`415` otherwise).
    func jsonObject() throws(HTTPError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw .badRequest("the body is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .badRequest("the body must be a JSON object, found \(value.kind)")
        }
        return object
    }
}

extension JSONObject {
    /// A string member, `nil` when absent; a member of another type is a 400 naming it.
    func string(_ key: String) throws(HTTPError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .badRequest("\(key) must be a string, found \(other.kind)")
        }
    }

    /// An object member, `nil` when absent.
    func object(_ key: String) throws(HTTPError) -> JSONObject? {
        switch self[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw .badRequest("\(key) must be an object, found \(other.kind)")
        }
    }

    /// A boolean member, `nil` when absent.
    func bool(_ key: String) throws(HTTPError) -> Bool? {
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw .badRequest("\(key) must be true or false, found \(other.kind)")
        }
    }

    /// Refuses members other than `allowed`, so a typo is an error rather than silently ignored.
    func requireOnly(_ allowed: Set<String>) throws(HTTPError) {
        if let unknown = keys.first(where: { !allowed.contains($0) }) {
            throw HTTPError(.unprocessableContent, "unknown member '\(unknown)'; allowed: \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
