/// What Wallet turns into links in a back field; back fields only (Apple's Pass reference). `[]` disables detection.
public enum DataDetectorType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case phoneNumber = "PKDataDetectorTypePhoneNumber"
    case link = "PKDataDetectorTypeLink"
    case address = "PKDataDetectorTypeAddress"
    case calendarEvent = "PKDataDetectorTypeCalendarEvent"
}
