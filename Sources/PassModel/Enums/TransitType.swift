/// The vehicle of a boarding pass; required on `boardingPass` and invalid elsewhere (Apple's Pass reference).
public enum TransitType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case air = "PKTransitTypeAir"
    case boat = "PKTransitTypeBoat"
    case bus = "PKTransitTypeBus"
    case generic = "PKTransitTypeGeneric"
    case train = "PKTransitTypeTrain"
}
