import Foundation
import PassModel

/// An amount of money (`CurrencyAmount` in Apple's Order documentation): a JSON number and an ISO 4217 code.
///
/// The amount is a `Decimal`, so sums and comparisons of prices are exact; it is read from and written
/// as a JSON number (not a string: string amounts are suspected of making Wallet reject the order).
public struct CurrencyAmount: Sendable, Hashable {
    /// The amount, e.g. `24.99`.
    public var amount: Decimal
    /// The ISO 4217 currency, e.g. `EUR`.
    public var currency: CurrencyCode
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an amount.
    public init(amount: Decimal, currency: CurrencyCode) {
        self.amount = amount
        self.currency = currency
    }
}

extension CurrencyAmount: JSONModel {
    package static let blank = Self(amount: 0, currency: .placeholder)
    package static let schema = Schema<Self>([
        Property(required: "amount", { DecimalNumber($0.amount) }, { $0.amount = $1.value }),
        Property(required: "currency", { $0.currency }, { $0.currency = $1 }),
    ])
}

/// A `Decimal` read from and written as a JSON number, through its shortest spelling so `24.99`
/// stays `24.99` both ways.
struct DecimalNumber: JSONCodable {
    let value: Decimal

    init(_ value: Decimal) { self.value = value }

    init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .number(let number) = json, let value = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) else {
            throw .mismatch(path, expected: "a number like 24.99", found: json)
        }
        self.value = value
    }

    func write(to writer: inout JSONWriter) {
        writer.number(Double(value.description) ?? 0)
    }
}
