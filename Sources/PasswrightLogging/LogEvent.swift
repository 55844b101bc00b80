import Foundation

/// One structured log line: what happened, how important it is, and the facts as key/value fields.
///
/// Fields are strings so every sink can print them; keep secrets (tokens, keys) out of them.
public struct LogEvent: Sendable, Encodable {
    /// When the event happened.
    public var time: Date
    /// How important it is.
    public var level: LogLevel
    /// Which part of the program logged it, e.g. `http`.
    public var label: String
    /// A short, constant sentence, so events can be grouped.
    public var message: String
    /// The facts of this occurrence.
    public var fields: [String: String]

    /// Creates an event.
    public init(time: Date = Date(), level: LogLevel, label: String, message: String, fields: [String: String] = [:]) {
        self.time = time
        self.level = level
        self.label = label
        self.message = message
        self.fields = fields
    }

    /// The event as one line of JSON (keys sorted, ISO 8601 time), ready for a log collector.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Plain strings and a date always encode; a failure would be a Foundation bug.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
