/// How Wallet formats a numeric field for the reader's locale; number values only (Apple's Pass reference).
public enum NumberStyle: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case decimal = "PKNumberStyleDecimal"
    case percent = "PKNumberStylePercent"
    case scientific = "PKNumberStyleScientific"
    case spellOut = "PKNumberStyleSpellOut"
}
