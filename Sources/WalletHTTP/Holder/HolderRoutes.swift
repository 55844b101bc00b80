import Foundation
import HTTPServer
import PassModel
import PassPreview
import WalletCore

/// The holder's side of a signed link: the page (`/passes/{type}/{serial}?expires=…&signature=…`)
/// and, under the same signature, the `.pkpass`, the pass's picture and a QR code of the link.
struct HolderRoutes {
    let pages: HolderPages
    /// Counts page views and downloads into the programme's figures.
    let analytics: AnalyticsService
    let links: DownloadLinks
    let publicURL: String
    let assets: HolderAssets
    let now: @Sendable () -> Date

    var group: RouteGroup {
        var group = RouteGroup()
        let signed = [RouteParameter("expires", in: .query, required: true), RouteParameter("signature", in: .query, required: true)]
        let refusals: [RouteResponse] = [
            .init(.forbidden, "Forged or malformed link", body: RouteBody("text/html", schema: "HolderPageHTML")),
            .init(.notFound, "No such pass", body: RouteBody("text/html", schema: "HolderPageHTML")),
            .init(.gone, "Expired link (the page says how to get a new one)", body: RouteBody("text/html", schema: "HolderPageHTML")),
        ]
        group.add(Route(
            .get, "/passes/:passType/:serial", operationID: "holderPage",
            summary: "The holder page of a signed, expiring link: the pass, its text, and Add to Apple Wallet (iPhone) or a QR code (desktop)",
            start: .inPool, parameters: signed + [RouteParameter("Accept-Language", in: .header)],
            responses: [RouteResponse(.ok, "The page, in the holder's language", body: RouteBody("text/html", schema: "HolderPageHTML"))] + refusals
        ) { request, context in try await page(request, context) })
        group.add(Route(
            .get, "/passes/:passType/:serial/pass.pkpass", operationID: "downloadPass", summary: "The signed pass of a holder link",
            start: .inPool, parameters: signed,
            responses: [
                RouteResponse(.ok, "The signed pass", body: RouteBody("application/vnd.apple.pkpass", schema: "PassArchive")),
                .problem(.forbidden, "Forged or malformed link"), .problem(.notFound, "No such pass"),
                .problem(.gone, "Expired link, or a voided or expired pass"),
            ]) { request, context in try await download(request, context) })
        group.add(Route(
            .get, "/passes/:passType/:serial/picture.png", operationID: "holderPicture",
            summary: "The pass drawn as Wallet shows it, for the page and link previews (Open Graph)", start: .inPool,
            parameters: signed + [RouteParameter("side", in: .query, schema: "HolderPictureSide"), RouteParameter("Accept-Language", in: .header),
                                  RouteParameter("If-None-Match", in: .header)],
            responses: [
                RouteResponse(.ok, "The picture (ETag names the pass's update tag)", body: RouteBody("image/png", schema: "PreviewPNG")),
                .empty(.notModified, "If-None-Match names the current picture"), .problem(.badRequest, "side is not front or back"),
                .problem(.forbidden, "Forged or malformed link"), .problem(.notFound, "No such pass"), .problem(.gone, "Expired link"),
            ]) { request, context in try await picture(request, context) })
        for (resource, operation, body) in [(DownloadLinks.Resource.qrCodePNG, "holderCodePNG", RouteBody("image/png", schema: "PreviewPNG")),
                                            (.qrCodeSVG, "holderCodeSVG", RouteBody("image/svg+xml", schema: "PreviewSVG"))] {
            group.add(Route(
                .get, "/passes/:passType/:serial/\(resource.rawValue)", operationID: operation, summary: "A QR code of the holder page's link, for print",
                parameters: signed,
                responses: [
                    RouteResponse(.ok, "The code", body: body), .problem(.forbidden, "Forged or malformed link"), .problem(.gone, "Expired link"),
                ]) { request, context in try await code(resource, request, context) })
        }
        group.add(Route(
            .get, "/holder/:file", operationID: "holderAsset", summary: "The holder page's stylesheet and the operator's Add to Apple Wallet badges",
            responses: [
                RouteResponse(.ok, "The file", bodies: [RouteBody("text/css", schema: "Text"), RouteBody("image/svg+xml", schema: "PreviewSVG")]),
                .problem(.notFound, "No such file"),
            ]) { _, context in
            assets.response(for: try context.parameters.require("file"))
        })
        return group
    }

    /// The admin route that hands out a pass's link.
    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .get, "/passes/:passType/:serial/link", operationID: "passLink",
            summary: "A fresh signed link to the pass's holder page, with its download, picture, QR codes for print and an HTML snippet for e-mails",
            auth: auth.requiring(.passesRead), start: .inPool,
            responses: [.json(.ok, "OK", schema: HolderLink.schemaName), .problem(.notFound, "No such pass")]
        ) { _, context in try await link(context) })
        return group
    }

    private func link(_ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        guard let view = try await pages.view(of: key, languages: []) else { return .problem(status: .notFound, detail: "no such pass") }
        let issued = now()
        func url(_ resource: DownloadLinks.Resource) -> String {
            publicURL + links.path(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, now: issued, resource: resource)
        }
        let page = url(.page), picture = url(.picture) + "&v=\(view.updateTag)"
        let name = view.text.description.isEmpty ? view.text.organizationName : "\(view.text.organizationName): \(view.text.description)"
        let html: HTML = """
            <a href="\(page)"><img src="\(picture)" alt="\(name)" width="320"></a>
            <p><a href="\(page)">\(HolderWords.english.addToWallet)</a></p>
            """
        return try .json(HolderLink(
            url: page, passURL: url(.pass), pictureURL: picture, qrCodePNG: url(.qrCodePNG), qrCodeSVG: url(.qrCodeSVG),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(links.expiry(from: issued))), html: html.markup))
    }

    /// Whether the link's signature holds: the refusal to answer with when it does not.
    private enum Check {
        case valid(expires: String, signature: String)
        case refused(DownloadLinks.Refusal)
    }

    private func check(_ request: HTTPRequest, _ key: PassKey) -> Check {
        let expires = request.query("expires"), signature = request.query("signature")
        do {
            try links.check(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, expires: expires, signature: signature, now: now())
        } catch {
            return .refused(error)
        }
        return .valid(expires: expires ?? "", signature: signature ?? "")
    }

    private func path(_ key: PassKey, _ resource: DownloadLinks.Resource, expires: String, signature: String) -> String {
        DownloadLinks.path(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, resource: resource, expires: expires, signature: signature)
    }

    private func page(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        let languages = AcceptLanguage.languages(request.headers["accept-language"])
        let words = HolderWords.choose(languages)
        switch check(request, key) {
        case .refused(.expired):
            // The signature holds, so the link was this pass's: its template may say how to get a new one.
            guard let view = try await pages.view(of: key, languages: languages) else {
                return HolderPage.refusal(words.notFound, words: words, status: .notFound)
            }
            let help = view.text.translation(of: Self.expiredLinkKey) ?? String(format: words.askForNewLink, view.text.organizationName)
            return HolderPage.refusal(words.linkExpired, help: help, words: HolderWords.choose((view.language.map { [$0] } ?? []) + languages), status: .gone)
        case .refused:
            return HolderPage.refusal(words.linkInvalid, words: words, status: .forbidden)
        case .valid(let expires, let signature):
            guard let view = try await pages.view(of: key, languages: languages) else {
                return HolderPage.refusal(words.notFound, words: words, status: .notFound)
            }
            // The page speaks the language the pass's words are in when it can.
            let pageWords = HolderWords.choose((view.language.map { [$0] } ?? []) + languages)
            let picture = path(key, .picture, expires: expires, signature: signature) + "&v=\(view.updateTag)"
            let links = HolderPage.Links(
                page: publicURL + path(key, .page, expires: expires, signature: signature), pass: path(key, .pass, expires: expires, signature: signature),
                picture: picture, backPicture: picture + "&side=back", absolutePicture: publicURL + picture)
            let response = try HolderPage.page(view, words: pageWords, links: links, device: HolderPage.Device(userAgent: request.headers["user-agent"]),
                                               badge: assets.badge(for: pageWords.language))
            if !LinkPreviewAgent.matches(request.headers["user-agent"]) { try await analytics.recordHolderVisit(.pageView, pass: key) }
            return response
        }
    }

    /// The `pass.strings` key a template translates to tell holders how to get a new link.
    static let expiredLinkKey = "passwright.expiredLink"

    private func download(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        if case .refused(let refusal) = check(request, key) { return Self.problem(refusal) }
        guard let view = try await pages.view(of: key, languages: []) else {
            return .problem(status: .notFound, detail: "no such pass")
        }
        guard view.state == .valid else {
            return .problem(status: .gone, detail: view.state == .voided ? "this pass is voided: it can no longer be added" : "this pass has expired: it can no longer be added")
        }
        try await analytics.recordHolderVisit(.download, pass: key)
        var response = HTTPResponse.bytes(view.archive, contentType: "application/vnd.apple.pkpass")
        response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(key.serialNumber)).pkpass\""
        response.headers["Cache-Control"] = "private, no-store"
        return response
    }

    private func picture(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        if case .refused(let refusal) = check(request, key) { return Self.problem(refusal) }
        let side: PreviewOptions.Side
        switch request.query("side") ?? "front" {
        case "front": side = .front
        case "back": side = .back
        case let other: throw HTTPError.badRequest("side must be front or back, not '\(other)'")
        }
        guard let view = try await pages.view(of: key, languages: AcceptLanguage.languages(request.headers["accept-language"])),
              let picture = try await pages.picture(of: key, side: side, language: view.language) else {
            return .problem(status: .notFound, detail: "no such pass")
        }
        let headers: HTTPHeaders = ["ETag": picture.entityTag, "Cache-Control": "public, max-age=3600", "Vary": "Accept-Language"]
        if let condition = request.headers["if-none-match"], condition.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == picture.entityTag }) {
            return .empty(status: .notModified, headers: headers)
        }
        var response = HTTPResponse.bytes(picture.data, contentType: "image/png")
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    private func code(_ resource: DownloadLinks.Resource, _ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        let expires: String, signature: String
        switch check(request, key) {
        case .refused(let refusal): return Self.problem(refusal)
        case .valid(let value, let signed): (expires, signature) = (value, signed)
        }
        let link = publicURL + path(key, .page, expires: expires, signature: signature)
        var response = resource == .qrCodeSVG
            ? HTTPResponse.bytes(Data(try LinkCode.svg(link, title: "QR code of the link to the pass \(key.serialNumber)").utf8), contentType: "image/svg+xml")
            : HTTPResponse.bytes(try LinkCode.png(link), contentType: "image/png")
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response
    }

    private static func problem(_ refusal: DownloadLinks.Refusal) -> HTTPResponse {
        refusal == .expired
            ? .problem(status: .gone, detail: "this link has expired; open the pass's page for how to get a new one")
            : .problem(status: .forbidden, detail: "this link is not valid")
    }
}
