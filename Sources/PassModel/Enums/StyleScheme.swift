/// A richer layout a pass opts into with `preferredStyleSchemes` (Apple's Pass reference); Wallet falls back to the
/// plain style when the scheme's requirements are not met, so the scheme must match the style key present.
public enum StyleScheme: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case posterEventTicket = "posterEventTicket"
    case eventTicket = "eventTicket"
    case semanticBoardingPass = "semanticBoardingPass"
    case boardingPass = "boardingPass"
}
