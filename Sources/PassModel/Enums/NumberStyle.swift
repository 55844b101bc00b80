/// How Wallet formats a numeric field for the reader's locale; number values only (§2.9).
public enum NumberStyle: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case decimal = "PKNumberStyleDecimal"
    case percent = "PKNumberStylePercent"
    case scientific = "PKNumberStyleScientific"
    case spellOut = "PKNumberStyleSpellOut"
}
