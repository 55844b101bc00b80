/// A route's path parameters, already percent-decoded and checked by the router (no NUL, no `/`, no
/// `.` or `..`, bounded length). Typed access answers `400` by itself, so a handler never writes
/// `parameters["x"] ?? ""`.
public struct PathParameters: Sendable, Equatable {
    private let values: [String: String]

    /// Creates parameters from decoded values.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The value of a parameter, `nil` when the route has none of that name.
    public subscript(name: String) -> String? { values[name] }

    /// The value of a parameter of the route; a name the route lacks is a `400` naming it.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = values[name] else { throw HTTPError(.badRequest, "the path has no parameter '\(name)'") }
        return value
    }

    /// The value converted, e.g. `require("version", as: Int.self)`; a value that does not convert is
    /// a `400` that names the parameter and the value.
    public func require<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) throws(HTTPError) -> Value {
        let text = try require(name)
        guard let value = Value(text) else {
            throw HTTPError(.badRequest, "path parameter '\(name)' must be a \(Value.self), not '\(text)'")
        }
        return value
    }
}
