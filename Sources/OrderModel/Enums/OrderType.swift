import PassModel

/// What kind of order it is (`orderType`). Apple's Order documentation supports only `ecommerce`; any other
/// value is rejected by Wallet, so it is a decoding error here.
public enum OrderType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case ecommerce
}
