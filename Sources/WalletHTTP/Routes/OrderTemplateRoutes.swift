import Foundation
import HTTPServer
import PassCompiler
import WalletCore

/// The admin routes of order templates under `/api/v1/order-templates`: list them, upload a folder
/// (a zip) as a new version. The same versions `serve --templates` imports from `orders/<name>`.
struct OrderTemplateRoutes {
    let orders: OrderService

    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1/order-templates")
        group.add(Route(
            .get, "", operationID: "listOrderTemplates", summary: "Order templates, each current version and whether its orders can be signed here",
            auth: auth.requiring(.templatesRead), responses: [.json(.ok, "OK", schema: OrderTemplateList.schemaName)]
        ) { _, _ in try .json(try await orders.list()) })
        group.add(Route(
            .put, "/:template", operationID: "uploadOrderTemplate",
            summary: "Upload an order template folder as a zip: a new version, which new orders are made from (orders already made keep theirs)",
            auth: auth.requiring(.templatesWrite), maxBodySize: TemplateRoutes.maxUploadSize, start: .inPool,
            requestBody: RouteBody("application/zip", schema: "TemplateArchive", alternatives: ["application/x-zip-compressed"]),
            responses: [
                .json(.ok, "A new version, or none when the files equal the current version (changed: false)", schema: OrderTemplateUpload.schemaName),
                .json(.created, "A new order template, version 1", schema: OrderTemplateUpload.schemaName),
                .problem(.badRequest, "Not a zip archive, or a bad name"),
                .problem(.contentTooLarge, "An archive over the limits"),
                .problem(.unsupportedMediaType, "Not application/zip"),
                .problem(.unprocessableContent, "No order.json naming an order type, or an unsafe archive"),
            ]) { request, context in try await upload(request, context) })
        group.add(Route(
            .get, "/:template", operationID: "getOrderTemplate", summary: "An order template's current version, its status and its history",
            auth: auth.requiring(.templatesRead),
            responses: [.json(.ok, "OK", schema: OrderTemplateDetails.schemaName), .problem(.notFound, "No such order template")]
        ) { _, context in
            let name = try context.parameters.require("template")
            guard let details = try await orders.details(ofTemplate: name) else { throw HTTPError(.notFound, "no order template '\(name)' is stored") }
            return try .json(details)
        })
        group.add(Route(
            .get, "/:template/versions/:version", operationID: "downloadOrderTemplateVersion", summary: "One version's files as a zip",
            auth: auth.requiring(.templatesRead),
            responses: [
                RouteResponse(.ok, "The version's folder as a zip", body: RouteBody("application/zip", schema: "TemplateArchive")),
                .problem(.notFound, "No such order template or version"),
            ]) { _, context in try await download(context) })
        return group
    }

    private func download(_ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let version = try context.parameters.require("version", as: Int64.self)
        guard let files = try await orders.files(ofTemplate: name, version: version) else {
            throw HTTPError(.notFound, "order template '\(name)' has no version \(version)")
        }
        var response = HTTPResponse.bytes(try TemplateSourceFile.archive(files), contentType: "application/zip")
        response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(name))-v\(version).zip\""
        return response
    }

    private func upload(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("template")
        let origin = try context.identity(as: APICaller.self).origin
        try TemplateRoutes.checkName(name)
        let archive = try TemplateArchive.files(from: request.body, document: "order.json")
        let upload: OrderTemplateUpload
        do {
            upload = try await orders.publish(name: name, files: archive.files, origin: origin)
        } catch OrderFailure.unusableTemplate(_, let reason) {
            throw HTTPError(.unprocessableContent, "order template '\(name)' is refused: \(reason); nothing was stored")
        }
        return try .json(upload, status: upload.changed && upload.version == 1 ? .created : .ok)
    }
}
