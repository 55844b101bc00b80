import PassModel

/// The state of one payment transaction (`payment.transactions[].status`, Apple's "PaymentTransaction").
public enum TransactionStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case pending
    case approved
    case completed
    case cancelled
    case failed
}
