import PassModel

/// Whether a payment transaction took money or gave it back (`transactionType`, Apple's "PaymentTransaction").
public enum TransactionType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case purchase
    case refund
}
