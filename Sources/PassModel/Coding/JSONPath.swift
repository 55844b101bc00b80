/// A location in a JSON document, rendered as `storeCard.primaryFields[0].value` only when needed.
///
/// Decoding visits every scalar; building a path string for each would dominate the cost, so the
/// path of a scalar is kept as (rendered parent, last component) and joined only for an error.
/// `package` so OrderModel reports `order.json` paths the same way.
package struct JSONPath {
    private enum Component {
        case none
        case key(String)
        case index(Int)
    }

    private let parent: String
    private let component: Component

    package static let root = JSONPath(parent: "", component: .none)

    private init(parent: String, component: Component) {
        self.parent = parent
        self.component = component
    }

    package var rendered: String {
        switch component {
        case .none: return parent
        case .key(let key): return parent.isEmpty ? key : parent + "." + key
        case .index(let index): return parent + "[\(index)]"
        }
    }

    /// The path of a member; `parent` must already be rendered (done once per object).
    package static func member(_ key: String, of parent: String) -> JSONPath {
        JSONPath(parent: parent, component: .key(key))
    }

    /// The path of an array element; `parent` must already be rendered (done once per array).
    package static func element(_ index: Int, of parent: String) -> JSONPath {
        JSONPath(parent: parent, component: .index(index))
    }
}

/// Joins rendered path strings the same way ``JSONPath`` does, for validation (which works on typed values).
package func joinPath(_ parent: String, _ key: String) -> String {
    parent.isEmpty ? key : parent + "." + key
}
