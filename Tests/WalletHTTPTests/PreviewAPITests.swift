import Foundation
import PasswrightTesting
import Testing

/// The preview routes over real HTTP: `GET /api/v1/passes/{type}/{serial}/preview` draws the pass as
/// stored now (cached by update tag, template version and options), `POST /api/v1/templates/{t}/preview`
/// draws a template's current version with a record.
@Suite("Preview API")
struct PreviewAPITests {
    static let loyalty = "pass.dev.passwright.loyalty"
    static let path = "/api/v1/passes/\(loyalty)/PV-1/preview"

    @Test("a pass's preview is a PNG of the style's size × scale, served from the cache until the pass changes")
    func passPreview() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "PV-1")
            let first = try await server.api("GET", Self.path)
            #expect(first.status == 200, "\(first)")
            #expect(first.header("Content-Type") == "image/png")
            #expect(first.header("Cache-Control")?.contains("private") == true)
            let tag = try #require(first.header("ETag"))
            // A store card is 375 × 468 pt; the default scale is @2x.
            #expect(try PNGHeader(first.body).size == [750, 936])
            #expect(try await Self.counters(server) == Counters(drawn: 1, cacheHits: 0))

            let second = try await server.api("GET", Self.path)
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(second.header("ETag") == tag)
            #expect(try await Self.counters(server) == Counters(drawn: 1, cacheHits: 1), "the second GET is answered from the cache")

            let notModified = try await server.client.send("GET", Self.path, headers: server.admin + [("If-None-Match", tag)])
            #expect(notModified.status == 304, "\(notModified)")
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == tag)

            let patch = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/PV-1", json: ["data": ["points": 987_654]])
            #expect(patch.status == 200, "\(patch)")
            let changed = try await server.api("GET", Self.path)
            #expect(changed.status == 200)
            #expect(changed.body != first.body, "the picture shows the new points")
            #expect(changed.header("ETag") != tag)
            #expect(try PNGHeader(changed.body).size == [750, 936])
            #expect(try await Self.counters(server) == Counters(drawn: 2, cacheHits: 1), "a changed pass is drawn again")
            let stale = try await server.client.send("GET", Self.path, headers: server.admin + [("If-None-Match", tag)])
            #expect(stale.status == 200, "the old ETag no longer matches")
        }
    }

    @Test("scale, side, format and locale change the picture; each option set is cached on its own")
    func options() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "PV-1")
            let base = try await server.api("GET", Self.path)
            #expect(try PNGHeader(base.body).size == [750, 936])
            let atThree = try await server.api("GET", Self.path + "?scale=3")
            #expect(try PNGHeader(atThree.body).size == [1125, 1404])
            let atOne = try await server.api("GET", Self.path + "?scale=1&side=front")
            #expect(try PNGHeader(atOne.body).size == [375, 468])
            let both = try await server.api("GET", Self.path + "?scale=1&side=both")
            let bothSize = try PNGHeader(both.body).size
            #expect(bothSize[0] > 375 * 2 && bothSize[1] >= 468, "front and back side by side: \(bothSize)")

            let german = try await server.api("GET", Self.path + "?locale=de")
            #expect(german.status == 200)
            #expect(german.body != base.body, "de.lproj's labels")
            #expect(german.header("ETag") != base.header("ETag"))

            let svg = try await server.api("GET", Self.path + "?format=svg")
            #expect(svg.status == 200)
            #expect(svg.header("Content-Type") == "image/svg+xml")
            #expect(svg.text.contains("<svg"))
            #expect(try await Self.counters(server) == Counters(drawn: 6, cacheHits: 0))
        }
    }

    @Test("a template preview draws the current version with the record given, or the placeholders' names")
    func templatePreview() async throws {
        try await withService { server in
            let path = "/api/v1/templates/loyalty/preview"
            let sample = try await server.client.send("POST", path, headers: server.admin)
            #expect(sample.status == 200, "\(sample)")
            #expect(sample.header("Content-Type") == "image/png")
            #expect(try PNGHeader(sample.body).size == [750, 936])

            let record = try await server.api("POST", path, json: ["record": try Samples.record("loyalty")])
            #expect(record.status == 200, "\(record)")
            #expect(record.body != sample.body, "the record's values, not the placeholders' names")
            #expect(try PNGHeader(record.body).size == [750, 936])

            let german = try await server.api("POST", path + "?locale=de", json: ["record": try Samples.record("loyalty")])
            #expect(german.status == 200)
            #expect(german.body != record.body, "the sample template with locale=de uses de.lproj")

            let boarding = try await server.api("POST", "/api/v1/templates/boarding/preview?scale=1", json: ["record": try Samples.record("boarding")])
            #expect(boarding.status == 200, "\(boarding)")
            #expect(try PNGHeader(boarding.body).size == [375, 500], "a boarding pass is 375 × 500 pt")
        }
    }

    @Test("a record that does not render is a 422 with the problems; bodies that are not JSON or too large are refused")
    func templatePreviewRefusals() async throws {
        try await withService { server in
            let path = "/api/v1/templates/loyalty/preview"
            let missing = try await server.api("POST", path, json: ["record": ["points": 10]])
            #expect(missing.status == 422, "\(missing)")
            let problems = (try missing.json()["problems"].array ?? []).compactMap(\.string)
            #expect(problems.contains { $0.contains("member") }, "the missing values are named: \(missing)")

            let unknownMember = try await server.api("POST", path, json: ["recrod": [:]])
            #expect(unknownMember.status == 422, "a typo is not the sample record: \(unknownMember)")
            let notAnObject = try await server.api("POST", path, json: ["record": "Ada"])
            #expect(notAnObject.status == 400)
            let text = try await server.client.send("POST", path, headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "text/plain")], body: Data("hi".utf8))
            #expect(text.status == 415)
            let big = Data(#"{"record": {"member": {"name": ""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 300 << 10) + Data(#""}}}"#.utf8)
            let tooLarge = try await server.client.send("POST", path, headers: server.admin, body: big)
            #expect(tooLarge.status == 413)
            let unknown = try await server.client.send("POST", "/api/v1/templates/no-such-template/preview", headers: server.admin)
            #expect(unknown.status == 404)
            try await server.expectHealthy()
        }
    }

    static let badQueries = [
        "side=left", "scale=4", "scale=two", "scale=", "format=jpeg", "locale=de_DE", "locale=-de", "locale=de--AT",
        "locale=" + String(repeating: "a", count: 36), "locale=d%C3%A9",
    ]

    @Test("a bad query parameter is a 400 that names it", arguments: ["pass", "template"])
    func badQuery(route: String) async throws {
        try await withService { server in
            _ = try await server.issue(serial: "PV-1")
            for query in Self.badQueries {
                let name = String(query.prefix { $0 != "=" })
                let response = route == "pass"
                    ? try await server.api("GET", Self.path + "?" + query)
                    : try await server.client.send("POST", "/api/v1/templates/loyalty/preview?" + query, headers: server.admin)
                #expect(response.status == 400, "\(query): \(response)")
                let problem = try response.json()
                #expect(problem["parameter"].string == name, "\(response)")
                #expect(problem["detail"].string?.hasPrefix(name) == true, "\(response)")
            }
            #expect(try await Self.counters(server) == Counters(drawn: 0, cacheHits: 0), "nothing is drawn for a bad request")
        }
    }

    @Test("an unknown pass is a 404, and both routes need the admin token")
    func notFoundAndUnauthorized() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "PV-1")
            let unknown = try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/NO-SUCH-PASS/preview")
            #expect(unknown.status == 404)
            #expect(unknown.header("Content-Type") == "application/problem+json")
            let anonymous = try await server.client.send("GET", Self.path)
            #expect(anonymous.status == 401)
            let wrong = try await server.client.send("GET", Self.path, headers: [("Authorization", "Bearer wrong-token")])
            #expect(wrong.status == 401)
            let anonymousTemplate = try await server.client.send("POST", "/api/v1/templates/loyalty/preview")
            #expect(anonymousTemplate.status == 401)
            #expect(try await Self.counters(server) == Counters(drawn: 0, cacheHits: 0))
        }
    }

    /// The preview counters of `/metrics`.
    struct Counters: Equatable {
        var drawn: Int
        var cacheHits: Int
    }

    static func counters(_ server: TestService) async throws -> Counters {
        let metrics = try await server.metrics()
        return Counters(drawn: Int(metrics["passwright_previews_drawn_total"] ?? -1), cacheHits: Int(metrics["passwright_preview_cache_hits_total"] ?? -1))
    }
}

/// The size a PNG says it is, read from its signature and `IHDR` chunk (PNG §11.2.2): what a viewer shows.
struct PNGHeader {
    let width: Int
    let height: Int
    var size: [Int] { [width, height] }

    init(_ data: Data) throws {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == Array("IHDR".utf8)[...] else {
            throw FixtureError("not a PNG: \(bytes)")
        }
        func number(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = number(16)
        height = number(20)
    }
}
