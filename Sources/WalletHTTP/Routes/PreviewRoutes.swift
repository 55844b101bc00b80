import Foundation
import HTTPServer
import PassModel
import PassPreview
import WalletCore

/// The admin routes that draw passes as Wallet shows them: a stored pass as its holder has it now,
/// and a template's current version with a record, so a console can show a design before issuing.
/// Both take `side`, `scale`, `format` and `locale` (``PreviewQuery``).
struct PreviewRoutes {
    let previews: PreviewService
    let metrics: ServiceMetrics

    /// The largest template preview body: a record as large as an issued pass's data may be.
    static let maxRecordSize = 256 << 10

    /// A stored pass's picture may be kept by the admin's browser, never by a shared cache (it shows
    /// a holder's data), and is checked with its `ETag` before each use (the pass may have changed).
    static let passCacheControl = "private, no-cache"

    /// The preview routes, under `/api/v1`.
    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1")
        let picture = [RouteBody("image/png", schema: "PreviewPNG"), RouteBody("image/svg+xml", schema: "PreviewSVG")]
        group.add(Route(
            .get, "/passes/:passType/:serial/preview", operationID: "previewPass",
            summary: "The pass drawn as Wallet shows it now (what GET …/pkpass gives), as PNG or SVG", auth: auth.requiring(.passesRead), start: .inPool,
            parameters: PreviewQuery.parameters + [RouteParameter("If-None-Match", in: .header)],
            responses: [
                RouteResponse(.ok, "The picture (ETag names the pass's update tag, template version and the options)", bodies: picture),
                .empty(.notModified, "If-None-Match names the current picture"),
                .problem(.badRequest, "A bad query parameter, named in parameter", schema: "PreviewOptionProblem"),
                .problem(.notFound, "No such pass"),
            ]) { request, context in try await pass(request, context) })
        group.add(Route(
            .post, "/templates/:template/preview", operationID: "previewTemplate",
            summary: "A template's current version filled with a record (or each placeholder's name), drawn as Wallet shows it", auth: auth.requiring(.templatesRead),
            maxBodySize: Self.maxRecordSize, start: .inPool, parameters: PreviewQuery.parameters,
            requestBody: RouteBody("application/json", schema: PreviewRequest.schemaName, required: false),
            responses: [
                RouteResponse(.ok, "The picture", bodies: picture),
                .problem(.badRequest, "A bad query parameter (named in parameter) or malformed JSON", schema: "PreviewOptionProblem"),
                .problem(.notFound, "No such template"), .problem(.unsupportedMediaType, "A body that is not JSON"),
                .problem(.unprocessableContent, "The record does not render, with every problem", schema: "UnreadablePreviewProblem"),
                .problem(.serviceUnavailable, "The template is not available on this server"),
            ]) { request, context in try await template(request, context) })
        return group
    }

    private func pass(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let options = try PreviewQuery.options(request)
        guard let pass = try await previews.passes.pass(try context.parameters.passKey()) else {
            return .problem(status: .notFound, detail: "no such pass")
        }
        let entityTag = PreviewService.entityTag(of: pass, options: options)
        let headers: HTTPHeaders = ["ETag": entityTag, "Cache-Control": Self.passCacheControl]
        if let condition = request.headers["if-none-match"], Self.matches(condition, entityTag) {
            return .empty(status: .notModified, headers: headers)
        }
        let picture = try await previews.picture(of: pass, options: options)
        metrics.previewServed(cached: picture.cached)
        var response = HTTPResponse.bytes(picture.data, contentType: options.format.mediaType)
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    private func template(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let options = try PreviewQuery.options(request)
        // No body at all is allowed: the placeholders' names then show where the data goes.
        let record = request.body.isEmpty ? nil : try PreviewRequest(validating: request.jsonObject()).record.map(JSONValue.object)
        guard let preview = try await previews.picture(template: name, record: record, options: options) else {
            throw HTTPError(.notFound, "no template '\(name)' is stored")
        }
        metrics.previewServed(cached: false)
        var response = HTTPResponse.bytes(preview.data, contentType: options.format.mediaType)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Whether an `If-None-Match` list names `entityTag`, by the weak comparison RFC 9110 §13.1.2 asks for.
    static func matches(_ condition: String, _ entityTag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == entityTag || tag == "W/" + entityTag
        }
    }
}
