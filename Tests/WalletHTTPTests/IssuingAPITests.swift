import Foundation
import Testing
import WalletCore
import WalletHTTP

/// The REST issuing API under `/api/v1` and the signed holder download links.
@Suite("REST issuing API")
struct IssuingAPITests {
    static let loyalty = "pass.dev.passwright.loyalty"

    @Test("an existing serial number is a 409 problem")
    func duplicateSerial() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "DUP-1")
            let again = try await server.api("POST", "/api/v1/passes", json: ["template": "loyalty", "serialNumber": "DUP-1", "data": try Samples.record("loyalty")])
            #expect(again.status == 409)
            #expect(again.header("Content-Type") == "application/problem+json")
            #expect(try again.json()["status"].number == 409)
        }
    }

    @Test("422 lists every invalid value by its JSON path")
    func everyInvalidValue() async throws {
        try await withService { server in
            let response = try await server.api("POST", "/api/v1/passes", json: [
                "template": "loyalty", "serialNumber": "BAD-LOC", "data": try Samples.record("loyalty"),
                "locations": [["latitude": 91, "longitude": 13], ["latitude": 52, "longitude": 200]],
            ])
            #expect(response.status == 422)
            #expect(response.header("Content-Type") == "application/problem+json")
            let problem = try response.json()
            let paths = Set((problem["errors"].array ?? []).compactMap { $0["path"].string })
            #expect(paths == ["locations[0].latitude", "locations[1].longitude"], "\(response)")
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/BAD-LOC").status == 404, "nothing was stored")
        }
    }

    @Test("a bad relevantDates does not hide bad latitudes, nor one missing placeholder another")
    func everyInvalidValueAtOnce() async throws {
        try await withService { server in
            let response = try await server.api("POST", "/api/v1/passes", json: [
                "template": "loyalty", "serialNumber": "BAD-ALL", "data": try Samples.record("loyalty"),
                "relevantDates": [["date": "tomorrow"]],
                "locations": [["latitude": 91, "longitude": 13]],
            ])
            #expect(response.status == 422)
            let paths = Set((try response.json()["errors"].array ?? []).compactMap { $0["path"].string })
            #expect(paths == ["relevantDates[0].date", "locations[0].latitude"], "\(response)")

            let missing = try await server.api("POST", "/api/v1/passes", json: [
                "template": "loyalty", "serialNumber": "BAD-MISSING", "data": ["points": 10],
            ])
            #expect(missing.status == 422)
            let missingPaths = (try missing.json()["errors"].array ?? []).compactMap { $0["path"].string }
            #expect(Set(missingPaths) == ["data.member.name", "data.member.id", "data.tier"], "\(missing)")
            #expect(missingPaths.count == 3, "one entry per missing value, however often the template uses it: \(missing)")
        }
    }

    @Test("a numeric serialNumber in the data is a 422, not silently replaced by a UUID")
    func numericSerialInData() async throws {
        try await withService { server in
            var record = try Samples.record("loyalty")
            record["serialNumber"] = 4711
            let response = try await server.api("POST", "/api/v1/passes", json: ["template": "loyalty", "data": record])
            #expect(response.status == 422, "\(response)")
            #expect(try response.json()["detail"].string?.contains("serialNumber") == true)
        }
    }

    @Test("an unknown template is a 422 naming it")
    func unknownTemplate() async throws {
        try await withService { server in
            let response = try await server.api("POST", "/api/v1/passes", json: ["template": "no-such-template", "data": [:]])
            #expect(response.status == 422)
            let problem = try response.json()
            #expect(problem["template"].string == "no-such-template")
            #expect((problem["detail"].string)?.contains("no-such-template") == true)
            #expect((problem["detail"].string)?.contains("loyalty") == true, "it lists the available templates")
        }
    }

    @Test("relevance overrides on POST and PATCH appear in the served pass.json")
    func relevanceOverrides() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "REL-1", extra: [
                "locations": [["latitude": 48.8566, "longitude": 2.3522, "relevantText": "Paris shop"]],
                "relevantDates": [["startDate": "2027-05-01T10:00:00+02:00", "endDate": "2027-05-01T18:00:00+02:00"]],
                "expirationDate": "2027-12-31T23:59:59+01:00",
            ])
            let issued = try await server.servedPass(Self.loyalty, "REL-1").passJSON
            let locations = issued["locations"].array
            #expect(locations?.count == 1)
            #expect(locations?.first?["latitude"].number == 48.8566)
            #expect(locations?.first?["relevantText"].string == "Paris shop")
            #expect(issued["relevantDates"][0]["startDate"].string == "2027-05-01T10:00:00+02:00")
            #expect(issued["expirationDate"].string == "2027-12-31T23:59:59+01:00")

            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/REL-1", json: [
                "locations": [["latitude": 40.4168, "longitude": -3.7038], ["latitude": 41.3874, "longitude": 2.1686]],
                "expirationDate": "2028-01-31T00:00:00Z",
            ])
            #expect(patched.status == 200, "\(patched)")
            let updated = try await server.servedPass(Self.loyalty, "REL-1").passJSON
            #expect(updated["locations"].array?.compactMap { $0["latitude"].number } == [40.4168, 41.3874])
            #expect(updated["expirationDate"].string == "2028-01-31T00:00:00Z")
            #expect(updated["relevantDates"].array?.count == 1, "an override the PATCH did not name stays")
        }
    }

    @Test("voided: true is served as a voided pass")
    func voided() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "VOID-1")
            #expect(try await server.servedPass(Self.loyalty, "VOID-1").passJSON["voided"].isNull)
            let response = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/VOID-1", json: ["voided": true])
            #expect(try response.json()["changed"].bool == true)
            #expect(try await server.servedPass(Self.loyalty, "VOID-1").passJSON["voided"].bool == true)
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/VOID-1").json()["voided"].bool == true)
        }
    }

    @Test("PATCH /api/v1/templates/loyalty/passes changes every loyalty pass and nothing else")
    func templateUpdate() async throws {
        try await withService { server in
            for serial in ["T-1", "T-2", "T-3"] { _ = try await server.issue(serial: serial) }
            _ = try await server.issue(template: "concert", serial: "C-1")
            let response = try await server.api("PATCH", "/api/v1/templates/loyalty/passes", json: ["data": ["tier": "Diamond"]])
            #expect(response.status == 200, "\(response)")
            let outcome = try response.json()
            #expect(outcome["matched"].number == 3)
            #expect(outcome["changed"].number == 3)
            for serial in ["T-1", "T-2", "T-3"] {
                #expect(try await server.servedPass(Self.loyalty, serial).fieldValue("tier").string == "Diamond")
            }
            let concert = try await server.api("GET", "/api/v1/passes/pass.dev.passwright.concert/C-1").json()
            #expect(concert["data"]["tier"].isNull)
            #expect(concert["data"]["event"]["name"].string == "Nightjar")
        }
    }

    @Test("a template-wide change that makes one pass invalid changes none")
    func templateUpdateAllOrNothing() async throws {
        try await withService { server in
            // Check-in opens a day before departure for one pass and an hour before for the other.
            var early = try Samples.record("boarding")
            var late = early
            var flight = early["flight"]
            flight["checkInOpens"] = "2027-03-09T08:10:00+01:00"
            early["flight"] = flight
            flight["checkInOpens"] = "2027-03-10T07:10:00+01:00"
            late["flight"] = flight
            _ = try await server.issue(template: "boarding", serial: "B-EARLY", data: early)
            _ = try await server.issue(template: "boarding", serial: "B-LATE", data: late)
            let before = try await server.api("GET", "/api/v1/passes/pass.dev.passwright.boarding/B-EARLY").json()

            // Departure moves to 06:10: fine for the first pass, before check-in opens for the second.
            let response = try await server.api("PATCH", "/api/v1/templates/boarding/passes", json: ["data": ["flight": ["departs": "2027-03-10T06:10:00+01:00"]]])
            #expect(response.status == 422, "\(response)")
            #expect(response.text.contains("relevantDates[0].endDate"))
            for serial in ["B-EARLY", "B-LATE"] {
                let pass = try await server.api("GET", "/api/v1/passes/pass.dev.passwright.boarding/\(serial)").json()
                let departs = pass["data"]["flight"]["departs"].string
                #expect(departs == "2027-03-10T08:10:00+01:00", "\(serial) must be unchanged")
                #expect(pass["updateTag"].string != nil)
            }
            let after = try await server.api("GET", "/api/v1/passes/pass.dev.passwright.boarding/B-EARLY").json()
            #expect(after["updateTag"].string == before["updateTag"].string, "the valid pass was not changed either")
        }
    }

    @Test("GET /api/v1/templates lists the six sample templates as ready")
    func templates() async throws {
        try await withService { server in
            let response = try await server.api("GET", "/api/v1/templates")
            #expect(response.status == 200)
            let list = try response.json()["templates"].array.orThrow("no templates")
            #expect(Set(list.compactMap { $0["name"].string }) == Set(Samples.templateNames))
            for entry in list {
                #expect(entry["status"].string == "ready", "\(entry)")
                #expect(entry["passTypeIdentifier"].string == "pass.dev.passwright.\(entry["name"].string ?? "")")
            }
        }
    }

    @Test("the admin pkpass endpoint and the holder link's pass.pkpass serve the archive as application/vnd.apple.pkpass")
    func downloads() async throws {
        try await withService { server in
            let issued = try await server.issue(serial: "DL-1")
            let admin = try await server.client.send("GET", "/api/v1/passes/\(Self.loyalty)/DL-1/pkpass", headers: server.admin)
            #expect(admin.status == 200)
            #expect(admin.header("Content-Type") == "application/vnd.apple.pkpass")
            #expect(try ServedPass(archive: admin.body).passJSON["serialNumber"].string == "DL-1")

            let page = try await server.client.send("GET", try TestService.localTarget(of: try (issued["downloadURL"].string).orThrow("no downloadURL")))
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8", "the link opens the holder page")
            let target = try TestService.passTarget(of: try (issued["downloadURL"].string).orThrow("no downloadURL"))
            let holder = try await server.client.send("GET", target)
            #expect(holder.status == 200)
            #expect(holder.header("Content-Type") == "application/vnd.apple.pkpass")
            #expect(holder.header("Content-Disposition") == #"attachment; filename="DL-1.pkpass""#)
            #expect(try ServedPass(archive: holder.body).passJSON["serialNumber"].string == "DL-1")
        }
    }

    @Test("a serial number with characters a path escapes is named by its Location and its holder link")
    func escapedSerialNumbers() async throws {
        try await withService { server in
            let serial = "Row 7?seat#3%ü"
            #expect(PathSegment.escaped(serial) == "Row%207%3Fseat%233%25%C3%BC")
            let created = try await server.api("POST", "/api/v1/passes", json: ["template": "loyalty", "serialNumber": .string(serial), "data": try Samples.record("loyalty")])
            #expect(created.status == 201)
            let location = try created.header("Location").orThrow("no Location")
            #expect(location == "/api/v1/passes/\(Self.loyalty)/Row%207%3Fseat%233%25%C3%BC")
            let read = try await server.client.send("GET", location, headers: server.admin)
            #expect(read.status == 200)
            #expect(try read.json()["serialNumber"].string == serial)
            let holder = try await server.client.send("GET", try TestService.passTarget(of: try (created.json()["downloadURL"].string).orThrow("no downloadURL")))
            #expect(holder.status == 200)
            #expect(try ServedPass(archive: holder.body).passJSON["serialNumber"].string == serial)
        }
    }

    @Test("a forged download link is 403; a link for another pass is 403; an expired one is 410")
    func downloadLinkRefusals() async throws {
        try await withService { server in
            let issued = try await server.issue(serial: "DL-2")
            _ = try await server.issue(serial: "DL-3")
            let target = try TestService.localTarget(of: try (issued["downloadURL"].string).orThrow("no downloadURL"))
            let signature = try target.split(separator: "signature=").last.map(String.init).orThrow("no signature")
            let flipped = String(signature.dropLast()) + (signature.hasSuffix("0") ? "1" : "0")
            let forged = try await server.client.send("GET", target.replacingOccurrences(of: signature, with: flipped))
            #expect(forged.status == 403)
            #expect(forged.header("Content-Type") == "text/html; charset=utf-8", "a holder's browser is told in a page")
            let forgedDownload = try await server.client.send("GET", try TestService.passTarget(of: TestService.publicURL + target).replacingOccurrences(of: signature, with: flipped))
            #expect(forgedDownload.status == 403)
            #expect(forgedDownload.header("Content-Type") == "application/problem+json")
            let otherPass = try await server.client.send("GET", target.replacingOccurrences(of: "/DL-2?", with: "/DL-3?"))
            #expect(otherPass.status == 403, "a link cannot be reused for another serial")
            let stretched = try await server.client.send("GET", target.replacingOccurrences(of: "expires=", with: "expires=9"))
            #expect(stretched.status == 403, "a link cannot be stretched")
            #expect(try await server.client.send("GET", "/passes/\(Self.loyalty)/DL-2").status == 403)

            // A link made with the server's key a day ago for one hour is past its expiry.
            let links = DownloadLinks(key: server.linkKey, lifetime: .seconds(3600))
            let expired = links.path(passTypeIdentifier: Self.loyalty, serialNumber: "DL-2", now: Date().addingTimeInterval(-86_400))
            let gone = try await server.client.send("GET", expired)
            #expect(gone.status == 410)
            let goneDownload = try await server.client.send("GET", try TestService.passTarget(of: TestService.publicURL + expired))
            #expect(goneDownload.status == 410)
            #expect(try goneDownload.json()["status"].number == 410)
            #expect(String(decoding: gone.body, as: UTF8.self).contains("This link has expired."), "the expired page says so")
            // The same key, a fresh link: proves 410 came from the expiry, not the signature.
            #expect(try await server.client.send("GET", links.path(passTypeIdentifier: Self.loyalty, serialNumber: "DL-2", now: Date())).status == 200)
        }
    }
}
