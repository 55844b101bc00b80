import Foundation
import Storage

/// Each device's last APNs answer, for operators: what the console shows beside a registered device.
extension WalletStore {
    /// The longest reason kept; a transport failure's description can run long.
    public static let maximumPushReasonLength = 200

    /// Records how APNs answered the latest push to the device: `status` its HTTP status (`nil` when
    /// no answer came, the connection failed) and `reason` APNs's reason or why no answer came (cut to
    /// ``maximumPushReasonLength`` characters). Returns whether the device exists; one already dropped
    /// (by this very answer, say) has nothing to record on.
    ///
    /// Pass a reason, never a token: it is shown to operators.
    @discardableResult
    public func recordPushOutcome(deviceLibraryIdentifier: String, at time: Date, status: Int?, reason: String?) async throws -> Bool {
        let reason = reason.map { String($0.prefix(Self.maximumPushReasonLength)) }
        return try await storing("record a push answer") {
            try await database.execute(SQL(
                "UPDATE devices SET last_push_at = ?, last_push_status = ?, last_push_reason = ? WHERE device_library_identifier = ?",
                .integer(Milliseconds.of(time)), status.map { .integer(Int64($0)) } ?? .null, reason.map(SQLValue.text) ?? .null,
                .text(deviceLibraryIdentifier))) > 0
        }
    }
}
