import PassModel

/// What `GET /api/v1/passes/{passType}/{serial}` answers: the pass's stored record and relevance
/// overrides, whether it is voided, its update tag and modification date, and its devices.
public struct PassDetails: WireValue {
    public static let schemaName = "PassDetails"

    /// The pass type identifier, the first half of the pass's key.
    public var passTypeIdentifier: String
    /// The serial number, the second half of the pass's key.
    public var serialNumber: String
    /// The template the pass is made from.
    public var template: String
    /// The record that fills the template, as stored.
    public var data: JSONValue
    /// The relevance keys set on this pass (locations, dates…), as stored.
    public var overrides: JSONValue
    /// Whether the pass is voided (Wallet shows it as no longer valid).
    public var voided: Bool
    /// The pass's update tag, a string (an integer in JavaScript loses precision past 2^53).
    public var updateTag: String
    /// An HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`), as the pass's `Last-Modified` header has it.
    public var lastModified: String
    /// Devices registered for the pass.
    public var registeredDevices: Int
    /// The holder's signed, expiring download link, absolute.
    public var downloadURL: String

    /// Creates the value from its members.
    public init(
        passTypeIdentifier: String, serialNumber: String, template: String, data: JSONValue, overrides: JSONValue, voided: Bool,
        updateTag: String, lastModified: String, registeredDevices: Int, downloadURL: String
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.template = template
        self.data = data
        self.overrides = overrides
        self.voided = voided
        self.updateTag = updateTag
        self.lastModified = lastModified
        self.registeredDevices = registeredDevices
        self.downloadURL = downloadURL
    }
}
