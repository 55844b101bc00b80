import PassModel

/// The state of a return (`returns[].status`, Apple's "Return").
public enum ReturnStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case open
    case onTheWay
    case processing
    case issue
    case completed
    case cancelled
}
