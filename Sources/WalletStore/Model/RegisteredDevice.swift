import Foundation

/// A device registered for a pass, with the push token to reach it.
public struct RegisteredDevice: Sendable, Hashable {
    /// The identifier the device chose; it authenticates the serial-numbers endpoint.
    public let deviceLibraryIdentifier: String
    /// The device's current APNs token (hex).
    public let pushToken: String
    /// When the device registered for this pass.
    public let registeredAt: Date
}
