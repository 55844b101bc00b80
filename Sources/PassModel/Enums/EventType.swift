/// The kind of event in semantic tags (Apple's Pass reference); sports and live performances have extra poster requirements.
public enum EventType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case generic = "PKEventTypeGeneric"
    case livePerformance = "PKEventTypeLivePerformance"
    case movie = "PKEventTypeMovie"
    case sports = "PKEventTypeSports"
    case conference = "PKEventTypeConference"
    case convention = "PKEventTypeConvention"
    case workshop = "PKEventTypeWorkshop"
    case socialGathering = "PKEventTypeSocialGathering"
}
