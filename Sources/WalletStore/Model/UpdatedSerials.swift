/// The answer to "which of my passes changed since this tag" (web service endpoint 2).
public struct UpdatedSerials: Sendable, Hashable {
    /// The serial numbers of the device's passes of the pass type changed after the tag, sorted.
    public let serialNumbers: [String]
    /// The largest update tag among them: the device sends it back as `passesUpdatedSince`, and gets
    /// nothing until a pass changes again.
    public let lastUpdated: Int64
}
