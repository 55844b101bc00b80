import Foundation

/// One value bound to a `?` placeholder or read from a result column.
///
/// The five storage classes SQLite knows are the common ground of both engines, so a row written on
/// one engine reads back the same on the other. PostgreSQL results are mapped onto them: integer types
/// and `bool` (1 or 0) become ``integer(_:)``, `float4`/`float8` ``real(_:)``, `bytea` ``blob(_:)``,
/// and everything else (text, `numeric`, `timestamptz`, `uuid`, `jsonb`) its text form.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer (`INTEGER`, `BIGINT`, `int4`, `bool`).
    case integer(Int64)
    /// A double-precision float (`REAL`, `DOUBLE PRECISION`).
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (`BLOB`, `bytea`); an empty blob stays an empty blob, not `NULL`.
    case blob(Data)

    /// The storage class's name, used in errors about a column holding an unexpected type.
    var typeName: String {
        switch self {
        case .null: "NULL"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}
