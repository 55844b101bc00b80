/// What `POST /api/v1/passes` answers (201): the issued pass's key, template, update tag and a
/// signed download link for its holder.
public struct IssueResponse: WireValue {
    public static let schemaName = "IssueResponse"

    /// The pass type identifier, the first half of the pass's key.
    public var passTypeIdentifier: String
    /// The serial number, the second half of the pass's key.
    public var serialNumber: String
    /// The template the pass is made from.
    public var template: String
    /// The pass's update tag, a string (an integer in JavaScript loses precision past 2^53).
    public var updateTag: String
    /// The holder's signed, expiring link, absolute: the holder page, which offers the pass to add
    /// (`…/pass.pkpass` under the same link is the file itself).
    public var downloadURL: String

    /// Creates the value from its members.
    public init(passTypeIdentifier: String, serialNumber: String, template: String, updateTag: String, downloadURL: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.template = template
        self.updateTag = updateTag
        self.downloadURL = downloadURL
    }
}
