/// How Wallet formats a date field for the reader's locale (`dateStyle`, `timeStyle`); date values only.
public enum DateStyle: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case none = "PKDateStyleNone"
    case short = "PKDateStyleShort"
    case medium = "PKDateStyleMedium"
    case long = "PKDateStyleLong"
    case full = "PKDateStyleFull"
}
