import Foundation
import Testing

@testable import HTTPServer

/// In-process routing: no sockets, the router called directly.
@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.get("/wallet/v1/passes/:passTypeIdentifier/:serialNumber") { request, context in
            .json(Data("\(context.parameters["passTypeIdentifier"]!)|\(context.parameters["serialNumber"]!)".utf8))
        }
        router.post("/wallet/v1/passes/:passTypeIdentifier/:serialNumber") { _, _ in .empty(status: .created) }
        router.delete("/items/:id") { _, _ in .empty() }
        router.get("/files/*") { request, context in .bytes(Data(context.parameters["*"]!.utf8), contentType: "text/plain") }
        return router
    }

    @Test func matchesPathParameters() async {
        let response = await router().respond(to: HTTPRequest(method: .get, target: "/wallet/v1/passes/pass.com.example/ABC-123"))
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "pass.com.example|ABC-123")
    }

    @Test(arguments: ["//wallet/v1//passes/pass.x/1/", "/wallet/v1/passes/pass.x/1/", "/wallet//v1/passes//pass.x///1"])
    func toleratesTrailingAndDuplicatedSlashes(target: String) async {
        let response = await router().respond(to: HTTPRequest(method: .get, target: target))
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "pass.x|1")
    }

    /// Routes are indexed by their first segment; the order they were added in still decides.
    @Test func firstAddedRouteWinsAcrossLiteralAndParameterFirstSegments() async {
        var router = Router()
        router.get("/:section/about") { _, context in .json(Data("section \(context.parameters["section"]!)".utf8)) }
        router.get("/shop/about") { _, _ in .json(Data("shop".utf8)) }
        router.get("/shop/:item") { _, context in .json(Data("item \(context.parameters["item"]!)".utf8)) }
        router.get("/*") { _, _ in .json(Data("tail".utf8)) }
        func answer(_ target: String) async -> String {
            String(decoding: await router.respond(to: HTTPRequest(method: .get, target: target)).body, as: UTF8.self)
        }
        #expect(await answer("/shop/about") == "section shop")
        #expect(await answer("/shop/hat") == "item hat")
        #expect(await answer("/sh%6Fp/hat") == "item hat")
        #expect(await answer("/other/about") == "section other")
        #expect(await answer("/other/x/y") == "tail")
        #expect(await answer("/shop/x/y") == "tail")
        #expect(await answer("/") == "tail")
    }

    @Test func decodesPercentEncodedParameters() async {
        let response = await router().respond(to: HTTPRequest(method: .get, target: "/wallet/v1/passes/pass.x/J%C3%BCrgen%20%231"))
        #expect(String(decoding: response.body, as: UTF8.self) == "pass.x|Jürgen #1")
    }

    @Test func unknownPathIsNotFoundProblem() async throws {
        let response = await router().respond(to: HTTPRequest(method: .get, target: "/nowhere"))
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json")
        let problem = try JSONDecoder().decode(HTTPProblem.self, from: response.body)
        #expect(problem.status == 404)
        #expect(problem.title == "Not Found")
    }

    @Test func knownPathWithOtherMethodIsMethodNotAllowedWithAllow() async {
        let response = await router().respond(to: HTTPRequest(method: .put, target: "/wallet/v1/passes/a/b"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST")
        let onlyDelete = await router().respond(to: HTTPRequest(method: .get, target: "/items/7"))
        #expect(onlyDelete.headers["allow"] == "DELETE")
    }

    @Test func headUsesTheGetRoute() async {
        let response = await router().respond(to: HTTPRequest(method: .head, target: "/wallet/v1/passes/a/b"))
        #expect(response.status == .ok)
    }

    @Test func tailCapturesTheRestOfThePath() async {
        let nested = await router().respond(to: HTTPRequest(method: .get, target: "/files/a/b%20c/d.txt"))
        #expect(String(decoding: nested.body, as: UTF8.self) == "a/b c/d.txt")
        let empty = await router().respond(to: HTTPRequest(method: .get, target: "/files/"))
        #expect(empty.status == .ok)
        #expect(empty.body.isEmpty)
        let traversal = await router().respond(to: HTTPRequest(method: .get, target: "/files/a/../../etc/passwd"))
        #expect(traversal.status == .badRequest)
    }

    @Test(arguments: [
        ("%00", "NUL"), ("a%00b", "NUL"), ("..", "relative"), ("%2e%2E", "relative"), ("a%2Fb", "'/'"),
        ("%E0%A4%A", "percent-encoded"), (String(repeating: "x", count: 257), "longer than 256"),
    ])
    func rejectsUnsafeParametersBeforeTheHandler(value: String, reason: String) async throws {
        let calls = Counter()
        var router = Router()
        router.get("/passes/:serial") { _, _ in
            calls.increment()
            return .empty()
        }
        let response = await router.respond(to: HTTPRequest(method: .get, target: "/passes/\(value)"))
        #expect(response.status == .badRequest)
        let problem = try JSONDecoder().decode(HTTPProblem.self, from: response.body)
        #expect(problem.detail?.contains("'serial'") == true)
        #expect(problem.detail?.contains(reason) == true)
        #expect(calls.count == 0)
    }

    @Test func parameterLengthLimitIsConfigurable() async {
        var router = Router(maxParameterLength: 4)
        router.get("/p/:id") { _, _ in .empty() }
        #expect(await router.respond(to: HTTPRequest(method: .get, target: "/p/abcd")).status == .noContent)
        #expect(await router.respond(to: HTTPRequest(method: .get, target: "/p/abcde")).status == .badRequest)
    }

    @Test func thrownErrorBecomesInternalServerErrorWithDetailOnlyInTheLog() async throws {
        struct Secret: Error, CustomStringConvertible { var description: String { "database password rejected" } }
        let log = LogRecorder()
        var router = Router(logger: log.logger)
        router.get("/boom") { _, _ in throw Secret() }
        let response = await router.respond(to: HTTPRequest(method: .get, target: "/boom"))
        #expect(response.status == .internalServerError)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("password"))
        let event = try #require(log.recorded.first)
        #expect(event.level == .error)
        #expect(event.fields["error"] == "database password rejected")
        #expect(event.fields["route"] == "/boom")
    }

    @Test func middlewareWrapsRoutingInOrderAndCanAnswerEarly() async {
        struct Tag: HTTPMiddleware {
            let name: String
            func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
                var response = await next(request)
                response.headers.add(name: "X-Trace", value: name)
                return response
            }
        }
        struct RequireToken: HTTPMiddleware {
            func respond(to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse {
                guard request.headers["authorization"] != nil else { return .problem(status: .unauthorized) }
                return await next(request)
            }
        }
        var router = Router()
        router.add(middleware: Tag(name: "outer"))
        router.add(middleware: Tag(name: "inner"))
        router.add(middleware: RequireToken())
        router.get("/x") { _, _ in .empty() }

        let denied = await router.respond(to: HTTPRequest(method: .get, target: "/x"))
        #expect(denied.status == .unauthorized)
        #expect(denied.headers.values(for: "x-trace") == ["inner", "outer"])

        let allowed = await router.respond(to: HTTPRequest(method: .get, target: "/x", headers: ["Authorization": "ApplePass t"]))
        #expect(allowed.status == .noContent)
        let notFound = await router.respond(to: HTTPRequest(method: .get, target: "/y", headers: ["Authorization": "t"]))
        #expect(notFound.status == .notFound)
        #expect(notFound.headers.values(for: "X-Trace") == ["inner", "outer"])
    }

    @Test func routeBodyLimitIsVisibleFromTheRequestHead() {
        var router = Router()
        router.post("/small", maxBodySize: 10) { _, _ in .empty() }
        router.post("/default") { _, _ in .empty() }
        #expect(router.plan(for: HTTPRequest(method: .post, target: "/small")).maxBodySize == 10)
        #expect(router.plan(for: HTTPRequest(method: .post, target: "/default")).maxBodySize == nil)
        #expect(router.plan(for: HTTPRequest(method: .post, target: "/unknown")).maxBodySize == nil)
    }
}
