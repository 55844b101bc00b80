import Foundation
import PassModel

/// The JSON documents the tests read: fixtures shipped as resources of this test target.
enum OrderFixtures {
    /// The bytes of `Fixtures/<name>.json`.
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The tree of `Fixtures/<name>.json`.
    static func json(_ name: String) throws -> JSONValue {
        try JSONValue.parse(data(name))
    }
}

extension OrderFixtures {
    /// The smallest valid order: the required keys of the order and its merchant, nothing else.
    static let minimal: JSONValue = .object([
        "schemaVersion": .number(1),
        "orderTypeIdentifier": .string("order.com.example.bakery"),
        "orderIdentifier": .string("b1f7a3c2-5d1e-4c8a-9f0b-2e7d6c5a4b3f"),
        "orderType": .string("ecommerce"),
        "orderManagementURL": .string("https://bakery.example.com/orders/B-1042"),
        "status": .string("open"),
        "merchant": .object([
            "displayName": .string("Example Bakery"),
            "merchantIdentifier": .string("merchant.com.example.bakery"),
            "url": .string("https://bakery.example.com"),
        ]),
        "createdAt": .string("2025-03-01T09:30:00Z"),
        "updatedAt": .string("2025-03-01T09:30:00Z"),
    ])
}

extension JSONValue {
    /// This tree with the value at a dotted path (`lineItems.1.price.amount`; numbers index arrays)
    /// replaced, or removed when `value` is `nil`. Missing objects on the way are created.
    func setting(_ path: String, to value: JSONValue?) -> JSONValue {
        setting(path.split(separator: ".").map(String.init)[...], to: value)
    }

    private func setting(_ components: ArraySlice<String>, to value: JSONValue?) -> JSONValue {
        guard let first = components.first else { return value ?? .null }
        let rest = components.dropFirst()
        switch self {
        case .array(var items):
            guard let index = Int(first), items.indices.contains(index) else { return self }
            if rest.isEmpty, value == nil {
                items.remove(at: index)
            } else {
                items[index] = items[index].setting(rest, to: value)
            }
            return .array(items)
        case .object(var object):
            object[first] = rest.isEmpty ? value : (object[first] ?? .object([:])).setting(rest, to: value)
            return .object(object)
        default:
            return JSONValue.object([:]).setting(components, to: value)
        }
    }

    /// The value at a dotted path, or `nil`.
    subscript(path path: String) -> JSONValue? {
        var current: JSONValue? = self
        for component in path.split(separator: ".") {
            switch current {
            case .object(let object)?: current = object[String(component)]
            case .array(let items)?:
                guard let index = Int(component), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }
}
