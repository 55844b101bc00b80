import PassModel

/// What `GET /api/v1/passes/{passType}/{serial}` answers: the pass's stored record and relevance
/// overrides, whether it is voided, its update tag and modification date, and its devices.
public struct PassDetails: WireValue {
    public static let schemaName = "PassDetails"

    public var passTypeIdentifier: String
    public var serialNumber: String
    public var template: String
    /// The record that fills the template, as stored.
    public var data: JSONValue
    /// The relevance keys set on this pass (locations, dates…), as stored.
    public var overrides: JSONValue
    public var voided: Bool
    /// The pass's update tag, a string (an integer in JavaScript loses precision past 2^53).
    public var updateTag: String
    /// An HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`), as the pass's `Last-Modified` header has it.
    public var lastModified: String
    /// Devices registered for the pass.
    public var registeredDevices: Int
    /// The holder's signed, expiring download link, absolute.
    public var downloadURL: String

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
