import Foundation
import Testing

@testable import HTTPServer

/// A route's declared body media type is enforced by the router: `415` naming the expected type,
/// before the handler runs.
@Suite struct RouteBodyTests {
    private static func router(_ calls: Counter) -> Router {
        var router = Router()
        router.add(Route(.post, "/json", requestBody: .json("Thing")) { _, _ in
            calls.increment()
            return .empty()
        })
        router.add(Route(.post, "/optional", requestBody: RouteBody("application/json", schema: "Thing", required: false)) { _, _ in
            calls.increment()
            return .empty()
        })
        router.add(Route(.put, "/zip", requestBody: RouteBody("application/zip", schema: "Archive", alternatives: ["application/x-zip-compressed"])) { _, _ in
            calls.increment()
            return .empty()
        })
        router.add(Route(.post, "/lenient", requestBody: RouteBody("application/json", schema: "Thing", checksContentType: false)) { _, _ in
            calls.increment()
            return .empty()
        })
        return router
    }

    private static func post(_ path: String, _ contentType: String?, body: String = "{}", method: HTTPMethod = .post) -> HTTPRequest {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPRequest(method: method, target: path, headers: headers, body: Data(body.utf8))
    }

    @Test(arguments: [
        ("/json", "text/plain", HTTPMethod.post, "application/json"), ("/json", nil, .post, "application/json"),
        ("/json", "application/json-seq", .post, "application/json"), ("/zip", "application/json", .put, "application/zip"),
        ("/optional", "text/plain", .post, "application/json"),
    ] as [(String, String?, HTTPMethod, String)])
    func anotherMediaTypeIs415NamingTheExpectedOne(path: String, contentType: String?, method: HTTPMethod, expected: String) async throws {
        let calls = Counter()
        let response = await Self.router(calls).respond(to: Self.post(path, contentType, method: method))
        #expect(response.status == .unsupportedMediaType)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect((problem["detail"] as? String)?.contains(expected) == true, "\(problem)")
        #expect(calls.count == 0, "the handler never ran")
    }

    @Test(arguments: [
        ("/json", "application/json; charset=utf-8", HTTPMethod.post), ("/json", "application/problem+json", .post),
        ("/zip", "application/zip", .put), ("/zip", "Application/X-Zip-Compressed", .put), ("/lenient", nil, .post), ("/lenient", "text/plain", .post),
    ] as [(String, String?, HTTPMethod)])
    func anAcceptedMediaTypeReachesTheHandler(path: String, contentType: String?, method: HTTPMethod) async {
        let calls = Counter()
        #expect(await Self.router(calls).respond(to: Self.post(path, contentType, method: method)).status == .noContent)
        #expect(calls.count == 1)
    }

    @Test func anOptionalBodyMayBeLeftOutWhateverTheContentType() async {
        let calls = Counter()
        #expect(await Self.router(calls).respond(to: Self.post("/optional", "text/plain", body: "")).status == .noContent)
        #expect(calls.count == 1)
    }

    /// Auth comes first: an unauthenticated caller learns nothing about the body the route takes.
    @Test func authIsCheckedBeforeTheMediaType() async {
        var router = Router()
        var group = RouteGroup("/api", auth: RouteAuth(scheme: "key", refusal: "No key") { _ in .problem(status: .unauthorized) })
        group.add(Route(.post, "/json", requestBody: .json("Thing")) { _, _ in .empty() })
        router.add(group)
        #expect(await router.respond(to: Self.post("/api/json", "text/plain")).status == .unauthorized)
    }
}
