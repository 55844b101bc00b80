/// One SQL statement and the values bound to its `?` placeholders.
///
/// Values are never spliced into the text: the text is a string literal (`StaticString`), so a value
/// cannot be interpolated into it by accident, and the parameters travel separately to the engine.
/// The same text runs on both engines; on PostgreSQL the `?` placeholders outside quotes and comments
/// are rewritten to `$1, $2, …`.
///
/// ```swift
/// let rows = try await database.query(SQL("SELECT tag FROM passes WHERE serial = ?", .text(serial)))
/// ```
public struct SQL: Sendable, Hashable, CustomStringConvertible {
    /// The statement text with `?` placeholders; printed in errors.
    public let text: String
    /// The values for the placeholders, in order; never printed, since they may be secrets.
    public let parameters: [SQLValue]

    /// A statement from a literal text and its parameters.
    public init(_ text: StaticString, _ parameters: SQLValue...) {
        self.text = text.description
        self.parameters = parameters
    }

    /// A statement from a literal text and a parameter list built at run time (for example a batch).
    public init(_ text: StaticString, parameters: [SQLValue]) {
        self.text = text.description
        self.parameters = parameters
    }

    /// A statement whose text is assembled at run time, such as an `IN (?, ?, ?)` list.
    ///
    /// Unsafe because nothing stops a value from being concatenated into `text`: build it only from
    /// fixed fragments and placeholders, and pass every value in `parameters`.
    public init(unsafeText text: String, parameters: [SQLValue] = []) {
        self.text = text
        self.parameters = parameters
    }

    /// Whether the statement is a `SELECT`: it reads (a function it calls aside) and, outside a
    /// transaction, has no commit to wait for.
    /// Asked of every PostgreSQL query, so it allocates nothing.
    public var isRead: Bool {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        let statement = text.utf8.drop(while: isBlank)
        guard let next = statement.dropFirst(6).first, isBlank(next) else { return false }
        return statement.prefix(6).lazy.map { $0 | 0x20 }.elementsEqual("select".utf8)
    }

    /// The statement text only; the parameters stay out of logs and error messages.
    public var description: String { text }
}
