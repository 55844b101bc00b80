import Foundation

/// The body of an RFC 9457 problem response, so servers and their tests share one shape.
public struct HTTPProblem: Codable, Sendable, Equatable {
    /// A URI naming the problem type; `about:blank` means "see the status code".
    public var type: String
    /// A short, human-readable summary that does not change between occurrences.
    public var title: String
    /// The HTTP status code, repeated for clients that only see the body.
    public var status: Int
    /// What went wrong this time, in words a client can act on; never internal details.
    public var detail: String?

    /// Creates a problem body.
    public init(type: String = "about:blank", title: String, status: Int, detail: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
    }

    /// The JSON body; encoding four plain fields cannot fail, hence no `throws`.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and an Int always encode; a failure here would be a Foundation bug.
        return (try? encoder.encode(self)) ?? Data()
    }
}
