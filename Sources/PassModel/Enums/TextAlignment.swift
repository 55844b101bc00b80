/// Field text alignment; invalid on primary and back fields (Apple's Pass reference). `natural` follows right-to-left languages.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case left = "PKTextAlignmentLeft"
    case center = "PKTextAlignmentCenter"
    case right = "PKTextAlignmentRight"
    case natural = "PKTextAlignmentNatural"
}
