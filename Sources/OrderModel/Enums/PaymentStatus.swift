import PassModel

/// The state of the payment (`payment.status`, Apple's "Payment"; required there, although some
/// libraries call it deprecated).
public enum PaymentStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case pending
    case authorized
    case paid
    case refunded
    case declined
    case voided
}
