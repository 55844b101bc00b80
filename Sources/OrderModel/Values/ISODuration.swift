import PassModel

/// An ISO 8601-1 duration such as `PT30M` or `P0Y0M0DT0H30M0S`: the length of a delivery or pick-up
/// window (Apple's "ShippingFulfillment" and "PickupFulfillment").
///
/// The text is kept as written, so `encode(decode(json)) == json` whichever spelling was used; the
/// parsed parts are there for checks and display.
public struct ISODuration: Sendable, Hashable, CustomStringConvertible {
    /// The duration as written.
    public let text: String
    /// Years, months, weeks, days, hours, minutes (whole numbers) and seconds (may have a fraction).
    public let years, months, weeks, days, hours, minutes: Int
    /// Seconds, the only part ISO 8601 lets carry a fraction.
    public let seconds: Double

    /// Parses `PnYnMnWnDTnHnMnS` (every part optional, at least one present, a time part after `T`);
    /// `nil` for anything else, such as `30 minutes` or `PT`.
    public init?(_ text: String) {
        var parts: [Character: Double] = [:]
        var number = ""
        var inTime = false
        var seen = false
        var chars = text.makeIterator()
        guard chars.next() == "P" else { return nil }
        while let char = chars.next() {
            if char.isASCII, char.isNumber || (char == "." && !number.isEmpty) {
                number.append(char)
            } else if char == "T", !inTime, number.isEmpty {
                inTime = true
                seen = false
            } else {
                // Date designators Y, M, W, D before T; time designators H, M, S after it.
                let key: Character = inTime ? (char == "M" ? "m" : char) : char
                let allowed: Set<Character> = inTime ? ["H", "m", "S"] : ["Y", "M", "W", "D"]
                guard allowed.contains(key), parts[key] == nil, let value = Double(number),
                      key == "S" || !number.contains(".") else { return nil }
                parts[key] = value
                number = ""
                seen = true
            }
        }
        guard number.isEmpty, seen else { return nil }
        self.text = text
        years = Int(parts["Y"] ?? 0)
        months = Int(parts["M"] ?? 0)
        weeks = Int(parts["W"] ?? 0)
        days = Int(parts["D"] ?? 0)
        hours = Int(parts["H"] ?? 0)
        minutes = Int(parts["m"] ?? 0)
        seconds = parts["S"] ?? 0
    }

    /// The length in seconds when the duration has no years or months (whose length depends on the
    /// calendar), else `nil`.
    public var fixedSeconds: Double? {
        guard years == 0, months == 0 else { return nil }
        return Double(((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60) + seconds
    }

    public var description: String { text }
}

extension ISODuration: ValidatedString {
    package static let expected = "an ISO 8601 duration like PT30M or P1DT2H"
}
