/// What a status means to the customer, which decides its colour: Wallet draws progress in the
/// accent colour, arrival in green, a problem in orange and a cancellation in red.
enum StatusTone: Sendable, Hashable {
    /// Nothing has happened yet, or nothing is asked of the customer: the plain text colour.
    case neutral
    case progress
    case done
    case problem
    case cancelled
}
