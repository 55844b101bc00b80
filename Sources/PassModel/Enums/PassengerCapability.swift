/// What an air passenger may do (iOS 26 semantic boarding passes).
public enum PassengerCapability: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case preboarding = "PKPassengerCapabilityPreboarding"
    case priorityBoarding = "PKPassengerCapabilityPriorityBoarding"
    case carryon = "PKPassengerCapabilityCarryon"
    case personalItem = "PKPassengerCapabilityPersonalItem"
}
