import Foundation
import HTTPServer
import PassCompiler
import PassLint
import PassModel
import Signing
import WalletCore

/// The REST API a business's backend calls to issue, read, update and void passes, under `/api/v1`,
/// behind `Authorization: Bearer <admin token>`; and the signed holder download links under `/passes`.
struct IssuingRoutes {
    let service: PassService
    let links: DownloadLinks
    let publicURL: String
    let metrics: ServiceMetrics
    let idempotent: Idempotent

    /// The admin routes under `/api/v1` that issue, read and change passes.
    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1")
        let pkpass = RouteBody("application/vnd.apple.pkpass", schema: "PassArchive")
        group.add(Route(
            .post, "/passes", operationID: "issuePass", summary: "Issue a pass from a template", auth: auth.requiring(.passesIssue), maxBodySize: 256 << 10,
            parameters: [Idempotent.parameter], requestBody: .json(IssueRequest.schemaName),
            responses: [
                .json(.created, "Issued", schema: IssueResponse.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.conflict, "A pass with this serial number exists, or a request with the same Idempotency-Key is still being answered"), .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Invalid values, each with its JSON path", schema: "InvalidPassProblem"),
            ]) { request, context in try await idempotent.run(request, context) { try await issue(request, context) } })
        group.add(Route(
            .get, "/passes/:passType/:serial", operationID: "getPass",
            summary: "Read a pass's stored data", auth: auth.requiring(.passesRead),
            responses: [.json(.ok, "OK", schema: PassDetails.schemaName), .problem(.notFound, "No such pass")]
        ) { _, context in try await read(context) })
        group.add(Route(
            .patch, "/passes/:passType/:serial", operationID: "updatePass",
            summary: "Merge data into a pass, move its relevance, or void it", auth: auth.requiring(.passesWrite), maxBodySize: 256 << 10,
            parameters: [Idempotent.parameter], requestBody: .json(PassChangeRequest.schemaName),
            responses: [
                .json(.ok, "OK", schema: UpdateResult.schemaName), .problem(.badRequest, "Malformed JSON or bad path parameter"),
                .problem(.conflict, "A request with the same Idempotency-Key is still being answered"),
                .problem(.notFound, "No such pass"), .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Invalid values", schema: "InvalidPassProblem"),
            ]) { request, context in try await idempotent.run(request, context) { try await update(request, context) } })
        group.add(Route(
            .get, "/passes/:passType/:serial/pkpass", operationID: "getPassArchive", summary: "The signed .pkpass", auth: auth.requiring(.passesRead),
            responses: [RouteResponse(.ok, "The signed pass", body: pkpass), .problem(.notFound, "No such pass")]
        ) { _, context in try await archive(context) })
        group.add(Route(
            .patch, "/templates/:template/passes", operationID: "updateTemplatePasses",
            summary: "Apply one change to every pass of a template: all validated first, then written in short batches", auth: auth.requiring(.passesWrite), maxBodySize: 256 << 10,
            parameters: [Idempotent.parameter], requestBody: .json(PassChangeRequest.schemaName),
            responses: [
                .json(.ok, "OK", schema: TemplateUpdateResult.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.conflict, "A request with the same Idempotency-Key is still being answered"),
                .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Unknown template or invalid values"),
            ]) { request, context in try await idempotent.run(request, context) { try await updateTemplate(request, context) } })
        group.add(Route(
            .get, "/logs", operationID: "deviceLogs", summary: "Recent lines devices posted to /wallet/v1/log", auth: auth.requiring(.passesRead),
            parameters: [RouteParameter("limit", in: .query, schema: "LogLimit")],
            responses: [
                .json(.ok, "OK", schema: DeviceLogs.schemaName), .problem(.badRequest, "limit is not a whole number from 1 to 1000"),
            ]) { request, _ in try await logs(request) })
        return group
    }

    private func issue(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let body = try IssueRequest(validating: request.jsonObject())
        // The path names no template here: a key limited to some is checked against the body's.
        let caller = try context.identity(as: APICaller.self)
        guard caller.allows(template: body.template) else { throw HTTPError(.forbidden, "this key may not use the template \(body.template)") }
        let stored = try await service.issue(PassService.Issue(
            template: body.template, serialNumber: body.serialNumber, data: body.data ?? JSONObject(), overrides: body.relevance), origin: caller.origin)
        metrics.passIssued()
        let result = IssueResponse(
            passTypeIdentifier: stored.key.passTypeIdentifier, serialNumber: stored.key.serialNumber, template: stored.template,
            updateTag: String(stored.updateTag),
            downloadURL: publicURL + links.path(passTypeIdentifier: stored.key.passTypeIdentifier, serialNumber: stored.key.serialNumber, now: service.now()))
        var response = try HTTPResponse.json(result, status: .created)
        response.headers["Location"] = "/api/v1/passes/\(PathSegment.escaped(stored.key.passTypeIdentifier))/\(PathSegment.escaped(stored.key.serialNumber))"
        return response
    }

    private func read(_ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        guard let pass = try await service.pass(key) else { return .problem(status: .notFound, detail: "no such pass") }
        let devices = try await service.registrationCount(for: key)
        return try .json(PassDetails(
            passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, template: pass.template,
            data: try PassService.value(pass.data), overrides: try PassService.value(pass.overrides), voided: pass.voided,
            updateTag: String(pass.updateTag), lastModified: HTTPDate.format(pass.lastModified), registeredDevices: devices,
            downloadURL: publicURL + links.path(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, now: service.now())))
    }

    private static func change(from body: JSONObject) throws(HTTPError) -> PassService.Change {
        let change = try PassChangeRequest(validating: body)
        return PassService.Change(data: change.data.map(JSONValue.object), overrides: change.relevance, voided: change.voided)
    }

    private func update(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let change = try Self.change(from: request.jsonObject())
        let outcome = try await service.update(try context.parameters.passKey(), change, origin: try context.identity(as: APICaller.self).origin)
        if outcome.changed { metrics.passUpdated() }
        return try .json(UpdateResult(
            serialNumber: outcome.pass.key.serialNumber, changed: outcome.changed, updateTag: String(outcome.pass.updateTag),
            pushesQueued: outcome.pushesQueued, heldUntil: outcome.heldUntil))
    }

    private func updateTemplate(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let change = try Self.change(from: request.jsonObject())
        let outcome = try await service.update(
            template: try context.parameters.require("template"), change, origin: try context.identity(as: APICaller.self).origin)
        metrics.passUpdated(outcome.changed)
        return try .json(outcome)
    }

    private func archive(_ context: RequestContext) async throws -> HTTPResponse {
        guard let pass = try await service.pass(try context.parameters.passKey()) else { return .problem(status: .notFound, detail: "no such pass") }
        return Self.pkpass(try await service.archive(for: pass), serial: pass.key.serialNumber)
    }

    private func logs(_ request: HTTPRequest) async throws -> HTTPResponse {
        var limit = 100
        if let text = request.query("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw HTTPError.badRequest("limit must be a whole number from 1 to 1000, not '\(text)'")
            }
            limit = value
        }
        let entries = try await service.recentDeviceLogs(limit: limit)
        return try .json(DeviceLogs(logs: entries.map { DeviceLogs.Entry(receivedAt: $0.receivedAt, message: $0.message) }))
    }

    private static func pkpass(_ archive: Data, serial: String) -> HTTPResponse {
        var response = HTTPResponse.bytes(archive, contentType: "application/vnd.apple.pkpass")
        response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(serial)).pkpass\""
        return response
    }
}
