import Foundation

/// One request as the APNs stand-in recorded it: a line of its record file (see
/// ``APNsStandInProcess``).
public struct APNsStandInRecord: Decodable, Sendable {
    /// When the stand-in answered it (UNIX seconds).
    public var time: Double
    /// The stand-in's number for the TLS connection it came on (1, 2, … in accept order).
    public var connection: Int
    /// The HTTP/2 stream it came on.
    public var stream: Int
    /// `POST` for every push.
    public var method: String
    /// `/3/device/<token>`.
    public var path: String
    /// Regular headers (pseudo-headers left out), names in lower case as HTTP/2 sends them.
    public var headers: [String: String]
    /// The payload as text.
    public var body: String
    /// The verified client certificate's subject, e.g. `UID=pass.dev…,CN=Pass Type ID: …`.
    public var clientSubject: String
    /// Requests open on its connection when its headers arrived, itself included.
    public var openStreams: Int
    /// Whether the client had acknowledged the stand-in's SETTINGS_MAX_CONCURRENT_STREAMS by then.
    public var limitAcknowledged: Bool
    /// Whether the answer went out before the request's body had arrived (`--answer-early`).
    public var answeredEarly: Bool

    /// The device token at the end of `/3/device/<token>`.
    public var token: String { path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : "" }

    enum CodingKeys: String, CodingKey {
        case time, connection, stream, method, path, headers, body
        case clientSubject = "client_subject"
        case openStreams = "open_streams"
        case limitAcknowledged = "limit_acknowledged"
        case answeredEarly = "answered_early"
    }

    /// Decodes a record line; fields an older stand-in did not write take empty defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(Double.self, forKey: .time)
        connection = try container.decode(Int.self, forKey: .connection)
        stream = try container.decodeIfPresent(Int.self, forKey: .stream) ?? 0
        method = try container.decodeIfPresent(String.self, forKey: .method) ?? ""
        path = try container.decodeIfPresent(String.self, forKey: .path) ?? ""
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        clientSubject = try container.decodeIfPresent(String.self, forKey: .clientSubject) ?? ""
        openStreams = try container.decodeIfPresent(Int.self, forKey: .openStreams) ?? 0
        limitAcknowledged = try container.decodeIfPresent(Bool.self, forKey: .limitAcknowledged) ?? false
        answeredEarly = try container.decodeIfPresent(Bool.self, forKey: .answeredEarly) ?? false
    }

    /// Every request recorded in `recordFile` so far, in the order answered. A last line still being
    /// written (no newline yet) is left for the next read.
    public static func read(from recordFile: URL) throws -> [APNsStandInRecord] {
        guard let data = FileManager.default.contents(atPath: recordFile.path) else { return [] }
        // The last element is empty when the file ends with a newline, or a line still being written.
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        return try lines.map { try JSONDecoder().decode(APNsStandInRecord.self, from: Data($0)) }
    }
}
