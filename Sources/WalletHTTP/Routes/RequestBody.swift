import Foundation
import HTTPServer
import PassModel
import WalletCore

extension HTTPRequest {
    /// The body as a JSON object, or a 4xx `HTTPError` that says what is wrong with it.
    func jsonObject(requireContentType: Bool = true) throws(HTTPError) -> JSONObject {
        if requireContentType {
            let type = headers["content-type"]?.split(separator: ";").first?.trimmingHTTPWhitespace.lowercased()
            guard type == "application/json" || type?.hasSuffix("+json") == true else {
                throw HTTPError(.unsupportedMediaType, "send the body as Content-Type: application/json")
            }
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw .badRequest("the body is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw .badRequest("the body must be a JSON object, found \(value.kind)")
        }
        return object
    }
}

extension JSONObject {
    /// A string member, `nil` when absent; a member of another type is a 400 naming it.
    func string(_ key: String) throws(HTTPError) -> String? {
        switch self[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw .badRequest("\(key) must be a string, found \(other.kind)")
        }
    }

    /// An object member, `nil` when absent.
    func object(_ key: String) throws(HTTPError) -> JSONObject? {
        switch self[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw .badRequest("\(key) must be an object, found \(other.kind)")
        }
    }

    /// A boolean member, `nil` when absent.
    func bool(_ key: String) throws(HTTPError) -> Bool? {
        switch self[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw .badRequest("\(key) must be true or false, found \(other.kind)")
        }
    }

    /// Refuses members other than `allowed`, so a typo is an error rather than silently ignored.
    func requireOnly(_ allowed: Set<String>) throws(HTTPError) {
        if let unknown = keys.first(where: { !allowed.contains($0) }) {
            throw HTTPError(.unprocessableContent, "unknown member '\(unknown)'; allowed: \(allowed.sorted().joined(separator: ", "))")
        }
    }
}

/// RFC 9110 IMF-fixdate HTTP-dates (`Sun, 06 Nov 1994 08:49:37 GMT`) for `Last-Modified` and
/// `If-Modified-Since`, done with `gmtime_r`/`timegm` because they are on the hot path of every
/// pass fetch and need no locale.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// `nil` when the text is not an IMF-fixdate; the header is then ignored, as RFC 9110 says.
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", fields[0].hasSuffix(","),
              let day = Int32(fields[1]), let month = months.firstIndex(of: String(fields[2])), let year = Int32(fields[3]) else { return nil }
        let clock = fields[4].split(separator: ":")
        guard clock.count == 3, let hour = Int32(clock[0]), let minute = Int32(clock[1]), let second = Int32(clock[2]),
              (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
