import PassModel

/// What the order costs and how it was paid (`payment`, Apple's "Payment").
public struct Payment: Sendable, Hashable {
    /// The total to be paid.
    public var total: CurrencyAmount
    /// The state of the payment; Apple's table requires it.
    public var status: PaymentStatus
    /// The breakdown shown under the total (subtotal, shipping, tax).
    public var summaryItems: [SummaryItem] = []
    /// The individual payments and refunds.
    public var transactions: [PaymentTransaction] = []
    /// Payment methods as text, e.g. "Visa 5678" (older form of `transactions[].paymentMethod`).
    public var paymentMethods: [String] = []
    /// Further Apple Pay transactions to link; the original one is linked anyway.
    public var applePayTransactionIdentifiers: [String] = []
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a payment with the required keys; set the rest by assignment.
    public init(total: CurrencyAmount, status: PaymentStatus) {
        self.total = total
        self.status = status
    }

    /// One line of the breakdown (`Payment.SummaryItems`): a localized label and an amount.
    public struct SummaryItem: Sendable, Hashable {
        /// The localized label, e.g. "Shipping".
        public var label: String
        /// The amount.
        public var value: CurrencyAmount
        /// Keys OrderModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a summary item.
        public init(label: String, value: CurrencyAmount) {
            self.label = label
            self.value = value
        }
    }
}

extension Payment: JSONModel {
    package static let blank = Self(total: .blank, status: .pending)
    package static let schema = Schema<Self>([
        Property(required: "total", { $0.total }, { $0.total = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property("summaryItems", { $0.summaryItems }, { $0.summaryItems = $1 }),
        Property("transactions", { $0.transactions }, { $0.transactions = $1 }),
        Property("paymentMethods", { $0.paymentMethods }, { $0.paymentMethods = $1 }),
        Property("applePayTransactionIdentifiers", { $0.applePayTransactionIdentifiers }, { $0.applePayTransactionIdentifiers = $1 }),
    ])
}

extension Payment.SummaryItem: JSONModel {
    package static let blank = Self(label: "", value: .blank)
    package static let schema = Schema<Self>([
        Property(required: "label", { $0.label }, { $0.label = $1 }),
        Property(required: "value", { $0.value }, { $0.value = $1 }),
    ])
}
