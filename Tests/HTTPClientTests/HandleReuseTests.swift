import Foundation
@testable import HTTPClient
import HTTPServer
import PasswrightTesting
import Testing

/// A client reuses one easy handle for request after request: nothing of one request (its method,
/// body, headers, pinned address, answer) may reach the next.
@Suite struct HandleReuseTests {
    @Test func eachRequestOnAReusedHandleIsOnlyItsOwn() async throws {
        try await withServer(HTTPClientTests.router()) { server in
            let client = try HTTPClientTests.client()
            let origin = "http://127.0.0.1:\(server.port)"
            let body = Data("first body".utf8)
            let put = try await client.send(HTTPClientRequest(
                method: "PUT", url: URL(string: "\(origin)/echo")!, headers: [(name: "X-Custom", value: "put")], body: body
            ))
            #expect(put.status == 200 && put[header: "x-method"] == "PUT" && put.body == body)
            #expect(client.idleHandles == 1, "the handle came back for the next request")

            // POST after PUT: not PUT again, and the PUT's header is gone.
            let post = try await client.send(HTTPClientRequest(method: "POST", url: URL(string: "\(origin)/echo")!, body: Data("second".utf8)))
            #expect(post.status == 201 && post[header: "x-method"] == "POST" && post[header: "x-seen"] == "none")
            #expect(post.text == "second")

            // HEAD, then GET: a GET after HEAD has its body again.
            let head = try await client.send(HTTPClientRequest(method: "HEAD", url: URL(string: "\(origin)/hello")!))
            #expect(head.status == 200 && head.body.isEmpty)
            let get = try await client.send(HTTPClientRequest(url: URL(string: "\(origin)/hello")!))
            #expect(get.status == 200 && get.text == "hello" && get[header: "x-seen"] == nil)

            // A pinned name, then the next request without a pin goes where its own URL says.
            let pinned = try await client.send(HTTPClientRequest(
                url: URL(string: "http://pinned.invalid:\(server.port)/hello")!, pinnedAddress: "127.0.0.1"
            ))
            #expect(pinned.status == 200 && pinned.text == "hello")
            let unpinned = try await client.send(HTTPClientRequest(method: "POST", url: URL(string: "\(origin)/echo")!, headers: [(name: "X-Custom", value: "last")], body: Data()))
            #expect(unpinned.status == 201 && unpinned[header: "x-seen"] == "last" && unpinned.body.isEmpty)
            #expect(client.idleHandles == 1, "one handle served every request in turn")
            await client.shutdown()
        }
    }

    @Test func aFailedTransfersHandleIsNotReused() async throws {
        let client = try HTTPClientTests.client()
        await #expect(throws: HTTPClientError.self) {
            try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!))
        }
        #expect(client.idleHandles == 0)
        await client.shutdown()
    }

    @Test func aClientKeepsNoMoreIdleHandlesThanItHasStreams() async throws {
        try await withServer(HTTPClientTests.router()) { server in
            let client = try HTTPClientTests.client { $0.maxConcurrentStreams = 2; $0.maxHostConnections = 2 }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(server.port)/hello")!)).status }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect((1...4).contains(client.idleHandles))
            await client.shutdown()
        }
    }
}
