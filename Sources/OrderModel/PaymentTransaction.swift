import PassModel

/// One payment or refund of the order (`payment.transactions[]`, Apple's "PaymentTransaction").
public struct PaymentTransaction: Sendable, Hashable {
    /// How much moved.
    public var amount: CurrencyAmount
    /// When the transaction was made.
    public var createdAt: W3CDate
    /// How it was paid.
    public var paymentMethod: PaymentMethod
    /// The state of the transaction.
    public var status: TransactionStatus
    /// A purchase or a refund.
    public var transactionType: TransactionType
    /// The Apple Pay transaction, when it went through Apple Pay.
    public var applePayTransactionIdentifier: String?
    /// A receipt file in the package.
    public var receipt: BundleFilePath?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a transaction with the required keys; set the rest by assignment.
    public init(amount: CurrencyAmount, createdAt: W3CDate, paymentMethod: PaymentMethod,
                status: TransactionStatus, transactionType: TransactionType) {
        self.amount = amount
        self.createdAt = createdAt
        self.paymentMethod = paymentMethod
        self.status = status
        self.transactionType = transactionType
    }

    /// How a transaction was paid (`PaymentMethod`): a name for display, e.g. "Visa 5678".
    public struct PaymentMethod: Sendable, Hashable {
        /// The name shown to the user.
        public var displayName: String
        /// Keys OrderModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a payment method.
        public init(displayName: String) {
            self.displayName = displayName
        }
    }
}

extension PaymentTransaction: JSONModel {
    package static let blank = Self(amount: .blank, createdAt: .placeholder, paymentMethod: .blank, status: .pending, transactionType: .purchase)
    package static let schema = Schema<Self>([
        Property(required: "amount", { $0.amount }, { $0.amount = $1 }),
        Property(required: "createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        Property(required: "paymentMethod", { $0.paymentMethod }, { $0.paymentMethod = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property(required: "transactionType", { $0.transactionType }, { $0.transactionType = $1 }),
        Property("applePayTransactionIdentifier", { $0.applePayTransactionIdentifier }, { $0.applePayTransactionIdentifier = $1 }),
        Property("receipt", { $0.receipt }, { $0.receipt = $1 }),
    ])
}

extension PaymentTransaction.PaymentMethod: JSONModel {
    package static let blank = Self(displayName: "")
    package static let schema = Schema<Self>([
        Property(required: "displayName", { $0.displayName }, { $0.displayName = $1 }),
    ])
}
