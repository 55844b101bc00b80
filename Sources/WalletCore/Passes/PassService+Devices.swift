import PassModel
import WalletStore

/// The Wallet web service's device endpoints (Apple's Wallet Web Service Reference): registrations, changed serial numbers and
/// the device log. The routes check the token first (``authorizedPass(_:token:)``).
public extension PassService {
    /// Registers a device for a pass's updates, replacing its push token if it was registered already
    /// (Apple: a device may re-register with a new token). `.created` answers 201, else 200.
    func register(deviceLibraryIdentifier: String, pushToken: String, for key: PassKey) async throws -> RegistrationResult {
        try await store.register(deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken, pass: key)
    }

    /// Removes a device's registration for a pass; returns whether one existed (both answer 200).
    @discardableResult
    func unregister(deviceLibraryIdentifier: String, from key: PassKey) async throws -> Bool {
        try await store.unregister(deviceLibraryIdentifier: deviceLibraryIdentifier, pass: key)
    }

    /// The device's passes of `passTypeIdentifier` changed after the tag `updatedSince`, or `nil`
    /// when none did (HTTP 204).
    func updatedSerials(deviceLibraryIdentifier: String, passTypeIdentifier: String, since updatedSince: Int64?) async throws -> UpdatedSerials? {
        try await store.serialNumbers(deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier, updatedSince: updatedSince)
    }

    /// Keeps the messages Wallet posted to the log endpoint (the store trims the oldest).
    func appendDeviceLogs(_ messages: [String]) async throws {
        try await store.appendLogs(messages)
    }

    /// The newest `limit` device log messages, newest first.
    func recentDeviceLogs(limit: Int) async throws -> [DeviceLog] {
        try await store.recentLogs(limit: limit)
    }
}

/// A pass's devices as operators see them (the web console's device table).
public extension PassService {
    /// The devices registered for the pass, oldest registration first, each with its last APNs
    /// answer (time, status, reason) and whether a push for the pass's type waits for it.
    func devices(for key: PassKey) async throws -> [RegisteredDevice] {
        try await store.registeredDevices(for: key)
    }
}
