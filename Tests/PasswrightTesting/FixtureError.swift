/// A fixture or helper that did not have the shape a test relies on (a tool that failed, a file
/// without the expected field), with what went wrong.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong, shown in the test failure.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension Optional {
    /// The value, or a ``FixtureError`` saying what was missing: set-up code reads like a `guard`
    /// without one.
    public func orThrow(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let self else { throw FixtureError(message()) }
        return self
    }
}
