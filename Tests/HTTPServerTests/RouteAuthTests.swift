import Foundation
import Testing

@testable import HTTPServer

/// An auth that resolves its caller from the request and the path, as Wallet's device token is
/// resolved against the pass the path names: the handler gets what it resolved and checks nothing.
@Suite struct RouteAuthTests {
    private struct Item: Sendable, Equatable {
        let id: String
        let token: String
    }

    private static let items = ["7": Item(id: "7", token: "seven"), "8": Item(id: "8", token: "eight")]

    private static func router(lookups: Counter, handled: Counter) -> Router {
        let auth = RouteAuth(scheme: "itemToken", refusal: "Wrong token or unknown item", resolving: { request, parameters in
            lookups.increment()
            try await Task.sleep(for: .milliseconds(1))  // a real lookup waits for its store
            let id = try parameters.require("id")
            if id == "broken" { throw HTTPError(.serviceUnavailable, "the store is down") }
            guard let item = items[id], request.headers["authorization"] == "Item \(item.token)" else {
                return .refused(.problem(status: .unauthorized, detail: "wrong token or unknown item"))
            }
            return .allowed(identity: item)
        })
        var group = RouteGroup("/items", auth: auth)
        group.add(Route(.get, "/:id") { _, context in
            handled.increment()
            let item = try context.identity(as: Item.self)
            return .bytes(Data("item \(item.id)".utf8), contentType: "text/plain")
        })
        group.add(Route(.get, "/:id/open", auth: RouteAuth.none) { _, context in
            handled.increment()
            _ = try context.identity(as: Item.self)
            return .empty()
        })
        var router = Router()
        router.add(group)
        return router
    }

    private static func get(_ target: String, token: String?) -> HTTPRequest {
        HTTPRequest(method: .get, target: target, headers: token.map { ["Authorization": "Item \($0)"] } ?? [:])
    }

    @Test func theHandlerGetsWhatTheAuthResolved() async {
        let lookups = Counter(), handled = Counter()
        let response = await Self.router(lookups: lookups, handled: handled).respond(to: Self.get("/items/8", token: "eight"))
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "item 8")
        #expect(lookups.count == 1 && handled.count == 1)
    }

    /// A wrong token and an unknown item answer the same, so the route does not tell which exist.
    @Test func aWrongTokenAndAnUnknownItemAnswerTheSameRefusal() async {
        let lookups = Counter(), handled = Counter()
        let router = Self.router(lookups: lookups, handled: handled)
        let wrong = await router.respond(to: Self.get("/items/7", token: "eight"))
        let missing = await router.respond(to: Self.get("/items/9", token: "nine"))
        let none = await router.respond(to: Self.get("/items/7", token: nil))
        #expect(wrong.status == .unauthorized)
        #expect(wrong.body == missing.body && wrong.body == none.body)
        #expect(missing.status == .unauthorized && none.status == .unauthorized)
        #expect(handled.count == 0, "no handler ran")
    }

    @Test func anErrorTheCheckThrowsIsAnsweredLikeAHandlers() async {
        let response = await Self.router(lookups: Counter(), handled: Counter()).respond(to: Self.get("/items/broken", token: "x"))
        #expect(response.status == .serviceUnavailable)
        #expect(String(decoding: response.body, as: UTF8.self).contains("the store is down"))
    }

    /// A handler that expects an identity on a route whose auth resolves none is refused, not answered.
    @Test func aMissingIdentityIsRefused() async {
        let response = await Self.router(lookups: Counter(), handled: Counter()).respond(to: Self.get("/items/7/open", token: nil))
        #expect(response.status == .unauthorized)
    }
}
