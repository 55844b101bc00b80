import Foundation
import PassModel
import WalletStore

/// Everything stored about one holder's passes (GDPR Art. 15 and 20), as `GET
/// /api/v1/passes/{type}/{serial}/export` and `POST /api/v1/exports` give it: machine-readable, to
/// hand to the holder or to another system.
public struct HolderExport: WireValue {
    public static let schemaName = "HolderExport"

    public var exportedAt: Date
    public var passes: [PassRecord]

    public init(exportedAt: Date, passes: [PassRecord]) {
        self.exportedAt = exportedAt
        self.passes = passes
    }

    /// One pass and what is kept about it.
    public struct PassRecord: Codable, Sendable, Equatable {
        public var passTypeIdentifier: String
        public var serialNumber: String
        public var template: String
        public var templateVersion: Int64
        /// The record the pass is rendered from.
        public var data: JSONValue
        /// The pass's own relevance keys (`locations`, `relevantDate`…).
        public var overrides: JSONValue
        public var voided: Bool
        public var createdAt: Date
        public var updatedAt: Date
        @NullWhenAbsent public var erasedAt: Date?
        /// Its changes, oldest first: when, by whom, and the names of what changed.
        public var history: [Change]
        /// A change waiting for the holder's quiet hours, with its edits.
        @NullWhenAbsent public var heldChange: HeldChange?
        /// The devices Wallet registered for it.
        public var devices: [Device]
        public var events: [Event]
        public var audit: [AuditRecord]

        public init(
            passTypeIdentifier: String, serialNumber: String, template: String, templateVersion: Int64, data: JSONValue, overrides: JSONValue,
            voided: Bool, createdAt: Date, updatedAt: Date, erasedAt: Date?, history: [Change], heldChange: HeldChange?, devices: [Device],
            events: [Event], audit: [AuditRecord]
        ) {
            self.passTypeIdentifier = passTypeIdentifier
            self.serialNumber = serialNumber
            self.template = template
            self.templateVersion = templateVersion
            self.data = data
            self.overrides = overrides
            self.voided = voided
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.erasedAt = erasedAt
            self.history = history
            self.heldChange = heldChange
            self.devices = devices
            self.events = events
            self.audit = audit
        }
    }

    public struct Change: Codable, Sendable, Equatable {
        public var changedAt: Date
        public var source: String
        public var changes: [String]

        public init(changedAt: Date, source: String, changes: [String]) {
            (self.changedAt, self.source, self.changes) = (changedAt, source, changes)
        }
    }

    public struct HeldChange: Codable, Sendable, Equatable {
        public var releaseAt: Date
        /// The held edits, as merge patches in the order they were made.
        public var edits: JSONValue

        public init(releaseAt: Date, edits: JSONValue) {
            (self.releaseAt, self.edits) = (releaseAt, edits)
        }
    }

    public struct Device: Codable, Sendable, Equatable {
        public var deviceLibraryIdentifier: String
        public var registeredAt: Date

        public init(deviceLibraryIdentifier: String, registeredAt: Date) {
            (self.deviceLibraryIdentifier, self.registeredAt) = (deviceLibraryIdentifier, registeredAt)
        }
    }
}
