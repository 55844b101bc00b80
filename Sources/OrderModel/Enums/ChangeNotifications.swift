import PassModel

/// Whether the device tells the user about changes to the order (`changeNotifications`); Wallet
/// assumes `enabled` when the key is absent (Apple's Order documentation).
public enum ChangeNotifications: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case enabled
    case disabledIfAppInstalled
}
