import PassModel

/// An ISO 4217 currency code: exactly three uppercase letters (`USD`, `EUR`, `JPY`), as Apple's Order
/// documentation requires of `CurrencyAmount.currency`.
public struct CurrencyCode: Sendable, Hashable, CustomStringConvertible {
    /// The code, e.g. `EUR`.
    public let code: String

    /// Accepts three ASCII uppercase letters; `nil` otherwise (`eur`, `EURO`, `€`).
    public init?(_ code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        self.code = code
    }

    /// The value a blank amount holds until decoding fills it in.
    static let placeholder = CurrencyCode("XXX")!

    public var description: String { code }
}

extension CurrencyCode: ValidatedString {
    package var text: String { code }
    package static let expected = "an ISO 4217 currency code of three uppercase letters like USD"
}
