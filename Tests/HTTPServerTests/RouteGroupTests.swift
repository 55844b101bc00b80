import Foundation
import PasswrightTesting
import Testing

@testable import HTTPServer

/// Route values, groups and the request context, in-process: prefixes, inherited auth, middleware
/// scoped to its group, typed parameters, and the one resolution made at the head.
@Suite struct RouteGroupTests {
    private struct Tag: HTTPMiddleware {
        let name: String
        func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
            var response = await next(request)
            response.headers.add(name: "X-Trace", value: "\(name):\(context.routeName)")
            return response
        }
    }

    private static let keyRequired = RouteAuth(scheme: "key", refusal: "No key") { request in
        request.headers["x-key"] == "k" ? nil : .problem(status: .unauthorized, detail: "send X-Key")
    }

    private func router() -> Router {
        var router = Router()
        router.add(middleware: Tag(name: "all"))
        var api = RouteGroup("/api/v1", auth: Self.keyRequired, middleware: [Tag(name: "api")])
        api.add(Route(.get, "/items/:id", operationID: "getItem") { _, context in
            .bytes(Data("item \(try context.parameters.require("id")) via \(context.route?.operationID ?? "-")".utf8), contentType: "text/plain")
        })
        api.add(Route(.get, "/items/:id/version/:version", operationID: "getVersion") { _, context in
            let version = try context.parameters.require("version", as: Int.self)
            return .bytes(Data("v\(version + 1)".utf8), contentType: "text/plain")
        })
        api.add(Route(.get, "/open", auth: RouteAuth.none) { _, _ in .empty() })
        api.add(Route(.post, "/upload", maxBodySize: 5) { request, _ in .bytes(request.body, contentType: "text/plain") })
        router.add(api)
        router.get("/outside") { _, context in .bytes(Data(context.routeName.utf8), contentType: "text/plain") }
        return router
    }

    @Test func groupPrefixesItsRoutesAndTheHandlerSeesTheMatchedRoute() async {
        let response = await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/items/7", headers: ["X-Key": "k"]))
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "item 7 via getItem")
        #expect(await router().respond(to: HTTPRequest(method: .get, target: "/items/7")).status == .notFound)
    }

    @Test func groupAuthGuardsItsRoutesUnlessARouteNamesItsOwn() async {
        let refused = await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/items/7"))
        #expect(refused.status == .unauthorized)
        #expect(await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/open")).status == .noContent)
        #expect(router().routes.first { $0.path == "/api/v1/items/:id" }?.auth?.scheme == "key")
        #expect(router().routes.first { $0.path == "/api/v1/open" }?.auth?.scheme == nil)
    }

    @Test func groupMiddlewareWrapsOnlyItsRoutesInsideTheRoutersOwn() async {
        let inGroup = await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/open"))
        #expect(inGroup.headers.values(for: "X-Trace") == ["api:/api/v1/open", "all:/api/v1/open"])
        let outside = await router().respond(to: HTTPRequest(method: .get, target: "/outside"))
        #expect(outside.headers.values(for: "X-Trace") == ["all:/outside"])
        #expect(String(decoding: outside.body, as: UTF8.self) == "/outside")
        let unmatched = await router().respond(to: HTTPRequest(method: .get, target: "/nowhere"))
        #expect(unmatched.headers.values(for: "X-Trace") == ["all:unmatched"])
    }

    @Test func typedParameterThatDoesNotConvertIsABadRequestNamingIt() async throws {
        let good = await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/items/1/version/41", headers: ["X-Key": "k"]))
        #expect(String(decoding: good.body, as: UTF8.self) == "v42")
        let bad = await router().respond(to: HTTPRequest(method: .get, target: "/api/v1/items/1/version/latest", headers: ["X-Key": "k"]))
        #expect(bad.status == .badRequest)
        let problem = try JSONDecoder().decode(HTTPProblem.self, from: bad.body)
        #expect(problem.detail?.contains("'version'") == true)
        #expect(problem.detail?.contains("'latest'") == true)
    }

    @Test func thePlanMadeAtTheHeadCarriesTheGroupRoutesBodyLimit() async {
        let plan = router().plan(for: HTTPRequest(method: .post, target: "/api/v1/upload"))
        #expect(plan.maxBodySize == 5)
        var request = HTTPRequest(method: .post, target: "/api/v1/upload", headers: ["X-Key": "k"])
        request.body = Data("abc".utf8)
        let response = await plan.respond(request)
        #expect(String(decoding: response.body, as: UTF8.self) == "abc")
    }

    @Test func patternParametersAreListedInOrder() {
        #expect(Route(.get, "/a/:x/b/:y/*") { _, _ in .empty() }.pathParameters == ["x", "y", "*"])
    }
}
