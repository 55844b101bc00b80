import Foundation

/// One result row, read by column name.
///
/// Accessors throw ``StorageError/column(name:reason:)`` naming the column when it is missing or
/// holds another type, so a schema drift fails loudly at the line that reads it.
public struct Row: Sendable, Hashable {
    /// The column names, in select order.
    public let columns: [String]
    /// The values, aligned with ``columns``.
    public let values: [SQLValue]

    /// A row from aligned names and values.
    public init(columns: [String], values: [SQLValue]) {
        precondition(columns.count == values.count, "a row needs one value per column")
        self.columns = columns
        self.values = values
    }

    /// The raw value of `column`, or `nil` when the result has no such column.
    public subscript(column: String) -> SQLValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The raw value of `column`; throws when the result has no such column.
    public func value(_ column: String) throws -> SQLValue {
        guard let value = self[column] else {
            throw StorageError.column(name: column, reason: "not in the result (columns: \(columns.joined(separator: ", ")))")
        }
        return value
    }

    /// A non-NULL integer.
    public func int64(_ column: String) throws -> Int64 {
        try required(column, "integer") { if case .integer(let value) = $0 { value } else { nil } }
    }

    /// A non-NULL integer that fits `Int`.
    public func int(_ column: String) throws -> Int {
        let value = try int64(column)
        guard let result = Int(exactly: value) else {
            throw StorageError.column(name: column, reason: "\(value) does not fit Int")
        }
        return result
    }

    /// A non-NULL boolean stored as 0/1 (SQLite) or `bool` (PostgreSQL).
    public func bool(_ column: String) throws -> Bool {
        try int64(column) != 0
    }

    /// A non-NULL float; integers are widened since SQLite may store `1.0` as `1`.
    public func double(_ column: String) throws -> Double {
        try required(column, "real", Self.double)
    }

    /// Non-NULL text.
    public func string(_ column: String) throws -> String {
        try required(column, "text") { if case .text(let value) = $0 { value } else { nil } }
    }

    /// Non-NULL bytes.
    public func data(_ column: String) throws -> Data {
        try required(column, "blob") { if case .blob(let value) = $0 { value } else { nil } }
    }

    /// An integer, or `nil` for NULL.
    public func optionalInt64(_ column: String) throws -> Int64? {
        try optional(column) { try int64(column) }
    }

    /// A float, or `nil` for NULL.
    public func optionalDouble(_ column: String) throws -> Double? {
        try optional(column) { try double(column) }
    }

    /// Text, or `nil` for NULL.
    public func optionalString(_ column: String) throws -> String? {
        try optional(column) { try string(column) }
    }

    /// Bytes, or `nil` for NULL.
    public func optionalData(_ column: String) throws -> Data? {
        try optional(column) { try data(column) }
    }

    private static func double(_ value: SQLValue) -> Double? {
        switch value {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    private func required<T>(_ column: String, _ expected: String, _ extract: (SQLValue) -> T?) throws -> T {
        let value = try value(column)
        guard let result = extract(value) else {
            throw StorageError.column(name: column, reason: "expected \(expected), found \(value.typeName)")
        }
        return result
    }

    private func optional<T>(_ column: String, _ read: () throws -> T) throws -> T? {
        try value(column) == .null ? nil : read()
    }
}
