import Foundation
import PassModel
import Storage

/// A pass's held notifying change: the edits its writers asked for, to be applied to the pass as it
/// is when the moment is right to notify its holder (never a snapshot that would undo a later write).
public struct PassHold: Sendable, Hashable {
    /// The pass.
    public let key: PassKey
    /// The held edits, oldest first, as JSON text. The store keeps it as it is given: the service
    /// encodes and applies it; the text also serves as the hold's compare-and-swap value.
    public let edits: String
    /// The template version a held roll-out moves the pass to, if one is held.
    public let templateVersion: Int64?
    /// When it may be written (epoch milliseconds).
    public let releaseAtMilliseconds: Int64

    /// Creates a hold.
    public init(key: PassKey, edits: String, templateVersion: Int64? = nil, releaseAtMilliseconds: Int64) {
        self.key = key
        self.edits = edits
        self.templateVersion = templateVersion
        self.releaseAtMilliseconds = releaseAtMilliseconds
    }

    /// A hold released at `releaseAt` (kept to the millisecond, as the store keeps times).
    public init(key: PassKey, edits: String, templateVersion: Int64? = nil, releaseAt: Date) {
        self.init(key: key, edits: edits, templateVersion: templateVersion, releaseAtMilliseconds: Int64((releaseAt.timeIntervalSince1970 * 1000).rounded()))
    }

    /// ``releaseAtMilliseconds`` as a date.
    public var releaseAt: Date { Milliseconds.date(releaseAtMilliseconds) }

    /// The columns a hold is read with.
    static let columns = "pass_type_identifier, serial_number, edits, template_version, release_at"

    init(row: Row) throws {
        key = PassKey(passTypeIdentifier: try row.string("pass_type_identifier"), serialNumber: try row.string("serial_number"))
        edits = try row.string("edits")
        templateVersion = try row.optionalInt64("template_version")
        releaseAtMilliseconds = try row.int64("release_at")
    }
}
