import Foundation
import HTTPServer
import PassCompiler
import PassLint
import PassModel
import Signing
import WalletStore

/// The REST API a business's backend calls to issue, read, update and void passes, under `/api/v1`,
/// behind `Authorization: Bearer <admin token>`; and the signed holder download links under `/passes`.
struct IssuingRoutes {
    let service: PassService
    let store: WalletStore
    let catalog: TemplateCatalog
    let links: DownloadLinks
    let publicURL: String
    let webServiceURL: String
    let identities: IdentityDirectory
    let metrics: ServiceMetrics

    func register(in table: inout RouteTable) {
        table.addAdmin(.post, "/api/v1/passes", maxBodySize: 256 << 10) { try await issue($0) }
        table.addAdmin(.get, "/api/v1/passes/:passType/:serial") { try await read($0) }
        table.addAdmin(.patch, "/api/v1/passes/:passType/:serial", maxBodySize: 256 << 10) { try await update($0) }
        table.addAdmin(.get, "/api/v1/passes/:passType/:serial/pkpass") { try await archive($0) }
        table.addAdmin(.patch, "/api/v1/templates/:template/passes", maxBodySize: 256 << 10) { try await updateTemplate($0) }
        table.addAdmin(.get, "/api/v1/templates") { _ in templates() }
        table.addAdmin(.post, "/api/v1/templates/:template/lint") { try lint($0) }
        table.addAdmin(.get, "/api/v1/logs") { try await logs($0) }
        table.add(.get, "/passes/:passType/:serial") { try await download($0) }
    }

    private func issue(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.jsonObject()
        try body.requireOnly(Set(["template", "serialNumber", "data"]).union(RelevanceOverrides.keys))
        guard let template = try body.string("template") else { throw RequestError(status: .unprocessableContent, detail: "template is required") }
        let serial = try body.string("serialNumber")
        let data = try body.object("data") ?? JSONObject()
        let stored = try await service.issue(PassService.Issue(template: template, serialNumber: serial, data: data, overrides: RelevanceOverrides.extract(from: body)))
        metrics.passIssued()
        let result: JSONValue = .object([
            "passTypeIdentifier": .string(stored.key.passTypeIdentifier),
            "serialNumber": .string(stored.key.serialNumber),
            "template": .string(stored.template),
            "updateTag": .string(String(stored.updateTag)),
            "downloadURL": .string(publicURL + links.path(passTypeIdentifier: stored.key.passTypeIdentifier, serialNumber: stored.key.serialNumber, now: Date())),
        ])
        var response = HTTPResponse.json(result.serialized(sortedKeys: true), status: .created)
        response.headers["Location"] = "/api/v1/passes/\(DownloadLinks.escape(stored.key.passTypeIdentifier))/\(DownloadLinks.escape(stored.key.serialNumber))"
        return response
    }

    private func read(_ request: HTTPRequest) async throws -> HTTPResponse {
        let key = request.passKey
        guard let pass = try await store.pass(key) else { return .problem(status: .notFound, detail: "no such pass") }
        let devices = try await store.registrationCount(for: key)
        let body: JSONValue = .object([
            "passTypeIdentifier": .string(key.passTypeIdentifier),
            "serialNumber": .string(key.serialNumber),
            "template": .string(pass.template),
            "data": try PassService.value(pass.data),
            "overrides": try PassService.value(pass.overrides),
            "voided": .bool(pass.voided),
            "updateTag": .string(String(pass.updateTag)),
            "lastModified": .string(HTTPDate.format(pass.lastModified)),
            "registeredDevices": .number(Double(devices)),
            "downloadURL": .string(publicURL + links.path(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, now: Date())),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private static func change(from body: JSONObject) throws(RequestError) -> PassService.Change {
        try body.requireOnly(Set(["data", "voided"]).union(RelevanceOverrides.keys))
        let data = try body.object("data").map(JSONValue.object)
        let voided = try body.bool("voided")
        let overrides = RelevanceOverrides.extract(from: body)
        guard data != nil || voided != nil || !overrides.isEmpty else {
            throw RequestError(status: .unprocessableContent, detail: "nothing to change: send data, voided or a relevance key (\(RelevanceOverrides.keys.sorted().joined(separator: ", ")))")
        }
        return PassService.Change(data: data, overrides: overrides, voided: voided)
    }

    private func update(_ request: HTTPRequest) async throws -> HTTPResponse {
        let change = try Self.change(from: request.jsonObject())
        let outcome = try await service.update(request.passKey, change)
        if outcome.changed { metrics.passUpdated() }
        let body: JSONValue = .object([
            "serialNumber": .string(outcome.pass.key.serialNumber),
            "changed": .bool(outcome.changed),
            "updateTag": .string(String(outcome.pass.updateTag)),
            "pushesQueued": .number(Double(outcome.pushesQueued)),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private func updateTemplate(_ request: HTTPRequest) async throws -> HTTPResponse {
        let change = try Self.change(from: request.jsonObject())
        let outcome = try await service.update(template: request.parameters["template"] ?? "", change)
        metrics.passUpdated(outcome.changed)
        let body: JSONValue = .object([
            "matched": .number(Double(outcome.matched)),
            "changed": .number(Double(outcome.changed)),
            "pushesQueued": .number(Double(outcome.pushesQueued)),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private func archive(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let pass = try await store.pass(request.passKey) else { return .problem(status: .notFound, detail: "no such pass") }
        return Self.pkpass(try service.archive(for: pass), serial: pass.key.serialNumber)
    }

    private func templates() -> HTTPResponse {
        let list: [JSONValue] = catalog.entries.keys.sorted().map { name in
            switch catalog.entries[name]! {
            case .ready(let compiler):
                return .object([
                    "name": .string(name), "status": .string("ready"),
                    "passTypeIdentifier": .string(compiler.template.passTypeIdentifier),
                    "teamIdentifier": .string(compiler.template.teamIdentifier),
                    "placeholders": .array(compiler.template.placeholders.map { .string($0) }),
                ])
            case .unavailable(let reason):
                return .object(["name": .string(name), "status": .string("unavailable"), "reason": .string(reason)])
            }
        }
        return .json(JSONValue.object(["templates": .array(list)]).serialized(sortedKeys: true))
    }

    /// The template's findings as it is on disk now (so an issuer can check a fix before restarting).
    private func lint(_ request: HTTPRequest) throws -> HTTPResponse {
        let name = request.parameters["template"] ?? ""
        guard let folder = catalog.directory?.appendingPathComponent(name),
              FileManager.default.fileExists(atPath: folder.appendingPathComponent("pass.json").path) else {
            return .problem(status: .notFound, detail: "template '\(name)' does not exist")
        }
        let findings: [Finding]
        do {
            let template = try Template.load(from: folder)
            let identity = try? identities.identity(forPassTypeIdentifier: template.passTypeIdentifier)
            let linter = Linter(webServiceURL: webServiceURL, intermediates: (try? identities.intermediates()) ?? [])
            findings = linter.lint(template: template, identity: identity?.certificate, now: Date())
        } catch {
            findings = [Linter.finding(for: error)]
        }
        let errors = findings.filter { $0.severity == .error }.count
        var response = HTTPResponse.json(LintReport.json(findings))
        response.headers["X-Passwright-Lint-Errors"] = String(errors)
        return response
    }

    private func logs(_ request: HTTPRequest) async throws -> HTTPResponse {
        var limit = 100
        if let text = request.query("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw RequestError.badRequest("limit must be a whole number from 1 to 1000, not '\(text)'")
            }
            limit = value
        }
        let entries = try await store.recentLogs(limit: limit)
        let list: [JSONValue] = entries.map {
            .object(["receivedAt": .string($0.receivedAt.formatted(.iso8601)), "message": .string($0.message)])
        }
        return .json(JSONValue.object(["logs": .array(list)]).serialized(sortedKeys: true))
    }

    private func download(_ request: HTTPRequest) async throws -> HTTPResponse {
        let key = request.passKey
        do {
            try links.check(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber,
                            expires: request.query("expires"), signature: request.query("signature"), now: Date())
        } catch {
            let detail = error == .expired ? "this download link has expired; ask the issuer for a new one" : "this download link is not valid"
            return .problem(status: error == .expired ? .gone : .forbidden, detail: detail)
        }
        guard let pass = try await store.pass(key) else { return .problem(status: .notFound, detail: "no such pass") }
        return Self.pkpass(try service.archive(for: pass), serial: key.serialNumber)
    }

    private static func pkpass(_ archive: Data, serial: String) -> HTTPResponse {
        var response = HTTPResponse.bytes(archive, contentType: "application/vnd.apple.pkpass")
        let safe = String(serial.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) ? Character($0) : "_" })
        response.headers["Content-Disposition"] = "attachment; filename=\"\(safe).pkpass\""
        return response
    }
}
