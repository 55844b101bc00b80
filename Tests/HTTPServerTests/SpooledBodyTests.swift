import Foundation
import HTTPServer
import PasswrightTesting
import Testing

/// A route whose body is spooled gets it as a temporary file, however it arrived (declared length or
/// chunked), beyond the server's in-memory default; its credentials are checked from the head.
@Suite struct SpooledBodyTests {
    static func router() -> Router {
        var router = Router()
        let auth = RouteAuth(scheme: "key", refusal: "No key") { request in
            request.headers["Authorization"] == "Bearer k" ? nil : .problem(status: .unauthorized)
        }
        router.add(Route(
            .post, "/upload", auth: auth, maxBodySize: 64 << 20,
            requestBody: RouteBody("application/octet-stream", schema: "Bytes", spooled: true)
        ) { request, _ in
            let file = try #require(request.spooledBody)
            let read = try file.open().readToEnd() ?? Data()
            // Read twice: each handle has its own offset.
            let again = try file.open().readToEnd() ?? Data()
            let checksum = read.reduce(UInt64(0)) { ($0 &* 31) &+ UInt64($1) }
            return .bytes(Data("\(file.count) \(read.count) \(again == read) \(request.body.isEmpty) \(checksum)".utf8), contentType: "text/plain")
        })
        return router
    }

    static func checksum(_ data: Data) -> UInt64 { data.reduce(UInt64(0)) { ($0 &* 31) &+ UInt64($1) } }

    @Test func aLargeUploadArrivesInAFileNotInMemory() async throws {
        // The server's default body limit is 1 MiB; the spooled route takes 64 MiB.
        try await withServer(Self.router(), configuration: HTTPServerConfiguration(port: 0, threadCount: 2, maxBodySize: 1 << 20)) { client in
            let body = Data((0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let response = try await client.request(
                "POST", "/upload", headers: [("Authorization", "Bearer k"), ("Content-Type", "application/octet-stream")], body: body)
            #expect(response.text == "\(body.count) \(body.count) true true \(Self.checksum(body))", "\(response)")

            // Chunked, without a declared length.
            let chunk = Data(repeating: 0x61, count: 300_000)
            var raw = "POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer k\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<5 { raw += String(chunk.count, radix: 16) + "\r\n" + String(decoding: chunk, as: UTF8.self) + "\r\n" }
            raw += "0\r\n\r\n"
            let request = Data(raw.utf8)
            let connection = try await client.open()
            let chunked = try await onThread { () throws -> RawResponse in
                try connection.write(request)
                return try connection.readResponse()
            }
            #expect(chunked.text == "1500000 1500000 true true \(Self.checksum(Data(repeating: 0x61, count: 1_500_000)))", "\(chunked)")
        }
    }

    @Test func aRefusedUploadIsAnsweredFromItsHead() async throws {
        try await withServer(Self.router()) { client in
            // 40 MB declared, nothing sent: the 401 cannot have waited for the body.
            let refused = try await client.send(
                "POST", "/upload", headers: [("Content-Type", "application/octet-stream"), ("Content-Length", "40000000")], body: Data())
            #expect(refused.status == 401)
            let tooLarge = try await client.send(
                "POST", "/upload", headers: [("Authorization", "Bearer k"), ("Content-Length", String(65 << 20))], body: Data())
            #expect(tooLarge.status == 413)
            #expect(try await client.request("POST", "/upload", headers: [("Authorization", "Bearer k"), ("Content-Type", "application/octet-stream")], body: Data("x".utf8)).text.hasPrefix("1 1 true true"))
        }
    }
}
