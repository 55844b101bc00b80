import Foundation
import PassModel
import Storage

/// A pass's held change: the state it is to have once the moment is right to notify its holder.
public struct PassHold: Sendable, Hashable {
    /// The pass.
    public let key: PassKey
    /// The record, overrides and voided flag to write (the full state, every later edit folded in).
    public let change: PassChange
    /// When it may be written (epoch milliseconds).
    public let releaseAtMilliseconds: Int64

    /// Creates a hold.
    public init(key: PassKey, change: PassChange, releaseAtMilliseconds: Int64) {
        self.key = key
        self.change = change
        self.releaseAtMilliseconds = releaseAtMilliseconds
    }

    /// A hold released at `releaseAt` (kept to the millisecond, as the store keeps times).
    public init(key: PassKey, change: PassChange, releaseAt: Date) {
        self.init(key: key, change: change, releaseAtMilliseconds: Int64((releaseAt.timeIntervalSince1970 * 1000).rounded()))
    }

    /// ``releaseAtMilliseconds`` as a date.
    public var releaseAt: Date { Milliseconds.date(releaseAtMilliseconds) }

    init(row: Row) throws {
        key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
        change = PassChange(data: try row.string("data"), overrides: try row.string("overrides"), voided: try row.bool("voided"))
        releaseAtMilliseconds = try row.int64("release_at")
    }
}
