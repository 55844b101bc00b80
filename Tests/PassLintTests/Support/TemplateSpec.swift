import Foundation
@testable import PassLint
import PassCompiler
import PassModel
import PasswrightTesting

/// A template described in memory — pass.json, image sizes, strings, extra files — written to a fresh
/// temporary folder, loaded with the real `Template.load`, and removed afterwards.
struct TemplateSpec: Sendable {
    var json: JSONValue
    /// Archive path → pixel size.
    var images: [String: (width: Int, height: Int)]
    /// Language → entries.
    var strings: [String: [(String, String)]] = [:]
    /// Other files by path.
    var extraFiles: [String: String] = [:]

    /// The linting clock: 29 Nov 2026, noon UTC.
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    /// A store card that lints clean.
    static var storeCard: TemplateSpec {
        TemplateSpec(json: parse("""
        {
          "formatVersion": 1,
          "passTypeIdentifier": "pass.com.example.lint",
          "teamIdentifier": "A1B2C3D4E5",
          "organizationName": "Example Coffee",
          "description": "Example Coffee rewards card",
          "webServiceURL": "https://wallet.example.com/passes/",
          "backgroundColor": "rgb(22, 61, 48)",
          "foregroundColor": "rgb(255, 255, 255)",
          "labelColor": "rgb(221, 197, 148)",
          "storeCard": {
            "headerFields": [{"key": "tier", "label": "Tier", "value": "{{tier}}"}],
            "primaryFields": [{"key": "points", "label": "Points", "value": "{{points | number}}",
                               "numberStyle": "PKNumberStyleDecimal", "changeMessage": "You now have %@ points"}],
            "secondaryFields": [{"key": "member", "label": "Member", "value": "{{member.name}}"}],
            "auxiliaryFields": [{"key": "since", "label": "Member since", "value": "{{since}}", "dateStyle": "PKDateStyleMedium"}],
            "backFields": [{"key": "terms", "label": "Terms", "value": "Points never expire."}]
          },
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{member.id}}", "messageEncoding": "iso-8859-1", "altText": "{{member.id}}"}],
          "locations": [{"latitude": 52.5, "longitude": 13.4, "relevantText": "Your card is ready"}]
        }
        """), images: scaled(["icon": (38, 38), "logo": (150, 50), "strip": (375, 144)]))
    }

    /// A poster event ticket that lints clean.
    static var posterTicket: TemplateSpec {
        TemplateSpec(json: parse("""
        {
          "formatVersion": 1,
          "passTypeIdentifier": "pass.com.example.poster",
          "teamIdentifier": "A1B2C3D4E5",
          "organizationName": "Example Festival",
          "description": "Example Festival poster ticket",
          "webServiceURL": "https://tickets.example.com/wallet/",
          "backgroundColor": "rgb(88, 24, 96)",
          "foregroundColor": "rgb(255, 255, 255)",
          "labelColor": "rgb(255, 214, 102)",
          "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
          "eventTicket": {
            "primaryFields": [{"key": "event", "label": "Event", "value": "{{event.name}}"}],
            "secondaryFields": [{"key": "date", "label": "Date", "value": "{{event.start}}", "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleShort"}]
          },
          "semantics": {
            "eventName": "{{event.name}}", "eventType": "PKEventTypeLivePerformance", "performerNames": "{{event.performers}}",
            "venueName": "{{venue.name}}", "venueRegionName": "{{venue.region}}", "venueRoom": "{{venue.room}}"
          },
          "nfc": {"message": "{{ticket.nfc}}", "encryptionPublicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEtYz8mZ3mtzSWo9U7zZBcxJSah5HradSQ/Rr/41RuZQBjGjiq1R847DCtmwCG3YZw2hdWfd82K0oQrXOgP13Syw==", "requiresAuthentication": true},
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{ticket.code}}", "messageEncoding": "iso-8859-1", "altText": "{{ticket.code}}"}],
          "relevantDates": [{"startDate": "{{event.doors}}", "endDate": "{{event.end}}"}],
          "expirationDate": "{{event.end}}"
        }
        """), images: scaled(["icon": (38, 38), "logo": (150, 50), "background": (345, 505), "primaryLogo": (126, 30), "secondaryLogo": (135, 12)]))
    }

    /// `slot.png`, `slot@2x.png`, `slot@3x.png` for each slot at its point size.
    static func scaled(_ slots: [String: (Int, Int)]) -> [String: (width: Int, height: Int)] {
        var images: [String: (width: Int, height: Int)] = [:]
        for (slot, size) in slots {
            for scale in 1...3 {
                images[scale == 1 ? "\(slot).png" : "\(slot)@\(scale)x.png"] = (size.0 * scale, size.1 * scale)
            }
        }
        return images
    }

    static func parse(_ text: String) -> JSONValue {
        // The literals above are valid JSON; a typo should fail loudly.
        try! JSONValue.parse(Data(text.utf8))
    }

    /// Sets (or with `nil` removes) the value at a PassModel path.
    mutating func set(_ path: String, _ value: JSONValue?) {
        JSONTree.set(value, at: path, in: &json)
    }

    /// Sets the value at `path` from JSON text.
    mutating func set(_ path: String, json text: String) {
        set(path, Self.parse(text))
    }

    /// Writes the folder, loads it, and hands the template to `body`.
    func withTemplate<R>(_ body: (Template) throws -> R) throws -> R {
        try withFolder { folder in try body(try Template.load(from: folder)) }
    }

    /// Writes the folder and hands its URL to `body`.
    func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
        try withTemporaryDirectory { folder in
            try json.serialized(sortedKeys: false).write(to: folder.appendingPathComponent("pass.json"))
            for (path, size) in images {
                try write(TestPNG.make(width: size.width, height: size.height), to: folder.appendingPathComponent(path), permissions: 0o644)
            }
            for (language, entries) in strings {
                let text = entries.map { "\"\($0.0)\" = \"\($0.1)\";\n" }.joined()
                try write(Data(text.utf8), to: folder.appendingPathComponent("\(language).lproj/pass.strings"), permissions: 0o644)
            }
            for (path, text) in extraFiles {
                try write(Data(text.utf8), to: folder.appendingPathComponent(path), permissions: 0o644)
            }
            return try body(folder)
        }
    }

    /// Lints the template as written.
    func lint(_ linter: Linter = Linter(), now: Date = TemplateSpec.now) throws -> [Finding] {
        try withTemplate { linter.lint(template: $0, now: now) }
    }
}
