import Foundation
import PassModel
import PasswrightTesting
import Testing
@testable import WalletCore
import WalletHTTP
import WalletStore
import ZipArchive

/// Bulk issuing over the API: an upload becomes a durable job whose records are issued once each,
/// bad lines named and the rest issued; results per line and the passes as `.pkpasses` bundles; on
/// both engines, across two instances, and after an instance stops mid-job.
@Suite(.timeLimit(.minutes(4))) struct BulkJobTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// `count` loyalty records as JSON Lines, serials `<prefix>-<n>`, with `replace` lines (1-based)
    /// swapped for other text.
    static func jsonLines(_ count: Int, prefix: String, replace: [Int: String] = [:]) -> Data {
        var text = ""
        for number in 1...count {
            text += replace[number] ?? #"{"serialNumber":"\#(prefix)-\#(number)","member":{"id":"M-\#(number)","name":"Member \#(number)"},"points":\#(number),"tier":"Gold"}"#
            text += "\n"
        }
        return Data(text.utf8)
    }

    static func upload(
        _ server: TestService, _ body: Data, type: String = "application/jsonl", query: String = "", key: String? = nil
    ) async throws -> RawResponse {
        var headers = [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", type)]
        if let key { headers.append(("Idempotency-Key", key)) }
        return try await server.client.send("POST", "/api/v1/templates/loyalty/jobs\(query)", headers: headers, body: body)
    }

    /// Follows the job until it is finished (the workers signal nothing to a client: it asks).
    static func finished(_ server: TestService, _ id: String) async throws -> JSON {
        for _ in 0..<400 {
            let response = try await server.api("GET", "/api/v1/jobs/\(id)")
            try #require(response.status == 200, "\(response)")
            let job = try response.json()
            if job["state"] == "completed" || job["state"] == "rejected" { return job }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError("job \(id) did not finish; the log:\n\(server.logs.text.suffix(3000))")
    }

    /// Every result line, following the `Link` header page by page.
    static func results(_ server: TestService, _ id: String, limit: Int = 10_000) async throws -> [JSON] {
        var lines: [JSON] = []
        var target: String? = "/api/v1/jobs/\(id)/results?limit=\(limit)"
        while let next = target {
            let response = try await server.api("GET", next)
            try #require(response.status == 200 && response.header("Content-Type") == "application/jsonl", "\(response)")
            lines += try response.text.split(separator: "\n").map { try JSON(parsing: Data($0.utf8)) }
            target = response.header("Link").flatMap { link in
                link.firstRange(of: ">").map { String(link[link.index(after: link.startIndex)..<$0.lowerBound]) }
            }
        }
        return lines
    }

    static func passCount(_ server: TestService) async throws -> Int {
        var count = 0
        var after: PassKey?
        while true {
            let page = try await server.service.store.passes(template: "loyalty", after: after, limit: 1_000)
            count += page.count
            guard page.count == 1_000 else { return count }
            after = page.last?.key
        }
    }

    @Test(arguments: Engine.selected)
    func badLinesAreNamedAndTheRestIssuedOnce(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let body = Self.jsonLines(120, prefix: "B", replace: [
                5: #"{"serialNumber":"B-5", "member": "#,  // cut off: not JSON
                9: #"{"serialNumber":"B-9","points":9}"#,  // no member: the template cannot fill its name
                11: #"{"serialNumber":12,"member":{"id":"x","name":"y"},"points":1,"tier":"Gold"}"#,
            ])
            let created = try await Self.upload(server, body)
            #expect(created.status == 202, "\(created)")
            let id = try #require(try created.json()["id"].string)
            #expect(created.header("Location") == "/api/v1/jobs/\(id)")
            let job = try await Self.finished(server, id)
            #expect(job["state"] == "completed" && job["records"] == 120 && job["issued"] == 117 && job["failed"] == 3, "\(job)")
            #expect(job["pending"] == 0 && job["bundleParts"] == 12 && job["etaSeconds"] == .null && job["ratePerSecond"].number != nil)

            let lines = try await Self.results(server, id, limit: 50)
            #expect(lines.map { $0["line"].number.map(Int.init) } == (1...120).map { $0 }, "every line once, in order, across pages")
            let failed = lines.filter { $0["state"] == "failed" }
            #expect(failed.map { $0["line"] } == [5, 9, 11])
            #expect(failed[0]["errors"][0]["message"].string?.contains("line 5") == true, "\(failed[0])")
            #expect(failed[1]["errors"].array?.contains { $0["path"].string?.hasPrefix("data.member") == true } == true, "\(failed[1])")
            #expect(failed[2]["errors"][0]["message"].string?.contains("serialNumber must be a string") == true, "\(failed[2])")
            #expect(try await Self.passCount(server) == 117)

            // An issued line's link downloads its pass; the results as CSV say the same.
            let issued = try #require(lines.first { $0["line"] == 7 })
            #expect(issued["serialNumber"] == "B-7" && issued["state"] == "issued" && issued["errors"] == .null)
            let download = try await server.client.send("GET", try TestService.passTarget(of: try #require(issued["downloadURL"].string)))
            #expect(download.status == 200)
            let downloaded = try ServedPass(archive: download.body)
            #expect(downloaded.passJSON["serialNumber"] == "B-7")
            let csv = try await server.api("GET", "/api/v1/jobs/\(id)/results?format=csv&limit=10")
            let rows = csv.text.components(separatedBy: "\r\n")
            #expect(rows[0] == "line,serialNumber,state,downloadURL,bundlePart,errors" && rows[5].hasPrefix("5,,failed,,,") && rows[7].hasPrefix("7,B-7,issued,https://"), "\(rows)")

            // The passes as bundles of ten, in the order they were issued (one instance: line order); each
            // result line names its part; the last part holds the rest.
            #expect(issued["bundlePart"] == 1 && lines.first { $0["line"] == 120 }?["bundlePart"] == 12)
            let first = try await server.api("GET", "/api/v1/jobs/\(id)/bundle?part=1")
            #expect(first.status == 200 && first.header("Content-Type") == "application/vnd.apple.pkpasses")
            let bundle = try ZipReader(data: first.body)
            #expect(bundle.entries.map(\.name) == (1...10).map { "pass-\($0).pkpass" })
            let serials = try (1...10).map { try ServedPass(archive: bundle.data(for: "pass-\($0).pkpass")).passJSON["serialNumber"] }
            #expect(serials == ["B-1", "B-2", "B-3", "B-4", "B-6", "B-7", "B-8", "B-10", "B-12", "B-13"])
            let last = try await server.api("GET", "/api/v1/jobs/\(id)/bundle?part=12")
            #expect(try ZipReader(data: last.body).entries.count == 7)
            #expect(try await server.api("GET", "/api/v1/jobs/\(id)/bundle?part=13").status == 422)

            // The same file again is a second job whose every record fails: a serial makes one pass.
            let again = try await Self.finished(server, try #require(try await Self.upload(server, body).json()["id"].string))
            #expect(again["issued"] == 0 && again["failed"] == 120, "\(again)")
            #expect(try await Self.passCount(server) == 117)
            let finishedEvents = try await EventAPITests.events(server, query: "&type=job.finished", count: 2).events
            #expect(finishedEvents.map { $0["data"]["job"] }.contains(.string(id)))
        }
    }

    @Test func validateFirstIssuesNothingUnlessEveryRecordIsValid() async throws {
        try await withService { server in
            let invalid = Self.jsonLines(40, prefix: "V", replace: [33: #"{"serialNumber":"V-33","points":1}"#])
            let created = try await Self.upload(server, invalid, query: "?validate=first")
            #expect(try created.status == 202 && created.json()["validation"] == "first", "\(created)")
            let job = try await Self.finished(server, try #require(try created.json()["id"].string))
            #expect(job["state"] == "rejected" && job["issued"] == 0 && job["failed"] == 1, "\(job)")
            #expect(try await Self.passCount(server) == 0)

            // An unreadable line rejects it at once, from the upload.
            let unreadable = try await Self.upload(server, Self.jsonLines(5, prefix: "U", replace: [2: "{"]), query: "?validate=first")
            #expect(try unreadable.status == 422 && unreadable.json()["job"].string != nil, "\(unreadable)")

            let valid = try await Self.upload(server, Self.jsonLines(40, prefix: "V"), query: "?validate=first")
            let done = try await Self.finished(server, try #require(try valid.json()["id"].string))
            #expect(done["state"] == "completed" && done["issued"] == 40, "\(done)")
            #expect(try await Self.passCount(server) == 40)

            #expect(try await Self.upload(server, Data("a\n".utf8), query: "?validate=later").status == 422)
        }
    }

    @Test func csvWithAHeaderRowAndRecordsWithoutSerials() async throws {
        try await withService { server in
            let csv = "member.id,member.name,points,tier\nM-1,Ada Okafor,10,Gold\nM-2,\"Okafor, Ada\",20,Silver\n"
            let created = try await Self.upload(server, Data(csv.utf8), type: "text/csv")
            let job = try await Self.finished(server, try #require(try created.json()["id"].string))
            #expect(job["format"] == "csv" && job["issued"] == 2, "\(job)")
            let lines = try await Self.results(server, try #require(job["id"].string))
            // Lines of the file: the header is line 1.
            #expect(lines.map { $0["line"] } == [2, 3])
            let serials = lines.compactMap { $0["serialNumber"].string }
            #expect(serials.count == 2 && serials.allSatisfy { UUID(uuidString: $0) != nil }, "chosen at upload: \(serials)")
            let pass = try await server.servedPass(Self.loyalty, serials[1])
            #expect(pass.passJSON.description.contains("Okafor, Ada"))

            let headless = try await Self.upload(server, Data("\n".utf8), type: "text/csv")
            #expect(headless.status == 422 && headless.text.contains("header"), "\(headless)")
            let empty = try await Self.upload(server, Data())
            #expect(empty.status == 422)
            let unknown = try await server.client.send(
                "POST", "/api/v1/templates/nope/jobs", headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "application/jsonl")],
                body: Self.jsonLines(1, prefix: "N"))
            #expect(unknown.status == 422, "\(unknown)")
        }
    }

    @Test func aRetriedUploadWithItsKeyIsOneJob() async throws {
        try await withService { server in
            let body = Self.jsonLines(30, prefix: "K")
            let first = try await Self.upload(server, body, key: "import-7")
            let second = try await Self.upload(server, body, key: "import-7")
            #expect(first.status == 202 && second.status == 202 && second.header("Idempotent-Replayed") == "true")
            #expect(try first.json()["id"] == second.json()["id"])
            let other = try await Self.upload(server, Self.jsonLines(31, prefix: "K"), key: "import-7")
            #expect(other.status == 422, "another upload under the key: \(other)")
            _ = try await Self.finished(server, try #require(try first.json()["id"].string))
            #expect(try await Self.passCount(server) == 30)
            let list = try await server.api("GET", "/api/v1/jobs").json()
            #expect(list["jobs"].array?.count == 1)
        }
    }

    /// A backend that subscribes to `job.finished` hears when its job is done, signed like every event.
    @Test func aSubscriberHearsTheJobFinish() async throws {
        try await withScratch { folder in
            let receiver = try WebhookReceiverProcess(folder: folder)
            defer { receiver.stop() }
            try await withService { server in
                _ = try await WebhookDeliveryTests.subscribe(server, receiver, types: ["job.finished"])
                let created = try await Self.upload(server, Self.jsonLines(25, prefix: "W", replace: [3: "nope"]))
                let id = try #require(try created.json()["id"].string)
                let deliveries = try await receiver.waitForDeliveries { !$0.isEmpty }
                try await Task.sleep(for: .milliseconds(300))  // nothing more comes
                #expect(try receiver.deliveries().count == 1)
                let body = try JSON(parsing: Data(deliveries[0].body.utf8))
                #expect(deliveries[0].verified && deliveries[0].type == "job.finished")
                #expect(body["data"]["job"] == .string(id) && body["data"]["state"] == "completed", "\(body)")
                #expect(body["data"]["issued"] == 24 && body["data"]["failed"] == 1 && body["data"]["records"] == 25, "\(body)")
            }
        }
    }

    @Test func anUploadWithoutCredentialsIsRefusedBeforeItsBody() async throws {
        try await withService { server in
            // Declares 100 MB and sends none of it: the 401 comes from the head.
            let refused = try await server.client.send(
                "POST", "/api/v1/templates/loyalty/jobs", headers: [("Content-Type", "application/jsonl"), ("Content-Length", "100000000")], body: Data())
            #expect(refused.status == 401, "\(refused)")
            #expect(try await server.api("GET", "/api/v1/jobs/job_nope").status == 404)
        }
    }

    /// Two instances on one PostgreSQL: each record is issued once, by whichever instance claimed it.
    @Test(.enabled(if: Engine.selected.contains(.postgres)))
    func twoInstancesShareAJobIssuingEachRecordOnce() async throws {
        try await Engine.postgres.withLocation { database in
            let token = "admin-" + UUID().uuidString
            let key = Data(UUID().uuidString.utf8)
            try await withService(on: database, linkKey: key, adminToken: token) { first in
                try await withService(on: database, linkKey: key, adminToken: token) { second in
                    let created = try await Self.upload(first, Self.jsonLines(3_000, prefix: "T"))
                    let id = try #require(try created.json()["id"].string)
                    let job = try await Self.finished(first, id)
                    #expect(job["issued"] == 3_000 && job["failed"] == 0, "no record failed as 'exists', so none was issued twice: \(job)")
                    #expect(try await Self.passCount(first) == 3_000)
                }
            }
        }
    }
}
