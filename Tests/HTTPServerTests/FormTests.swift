import Foundation
import HTTPServer
import PasswrightTesting
import Testing

/// Form bodies over a real server: decoded by libmicrohttpd's post processor, which needs the
/// connection, before the handler runs; the handler reads `request.form()`.
@Suite struct FormTests {
    /// Answers the decoded form as sorted `name=value` lines, files as `name:fileName:type:hex`.
    private static func router() -> Router {
        var router = Router()
        router.add(Route(.post, "/form", requestBody: .form("Form")) { request, _ in
            let form = try request.form()
            var lines = form.fields.map { "\($0.key)=\($0.value)" }
            lines += form.files.map { name, file in
                "\(name):\(file.fileName):\(file.contentType ?? "-"):\(file.data.map { String(format: "%02x", $0) }.joined())"
            }
            return .bytes(Data(lines.sorted().joined(separator: "\n").utf8), contentType: "text/plain")
        })
        router.add(Route(.post, "/json", requestBody: RouteBody("application/json", schema: "Thing", checksContentType: false)) { request, _ in
            _ = try request.form()
            return .empty()
        })
        return router
    }

    @Test func urlEncoded() async throws {
        let response = try await withServer(Self.router()) { client in
            try await client.request("POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                     body: Data("name=Ada+Lovelace&city=Z%C3%BCrich&name=Mallory&empty=&last=1".utf8))
        }
        #expect(response.status == 200)
        #expect(response.text == "city=Zürich\nempty=\nlast=1\nname=Ada Lovelace", "plus and percent decoded, the first of a repeated name kept")
    }

    @Test func multipartWithABinaryFile() async throws {
        let boundary = "----passwright7MA4YWxk"
        let file = Data([0x50, 0x4B, 0x03, 0x04, 0x00, 0x0D, 0x0A, 0x2D, 0x2D, 0xFF])  // NUL, CRLF and "--" inside
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc123\r\n".utf8))
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"club.zip\"\r\nContent-Type: application/zip\r\n\r\n".utf8))
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let response = try await withServer(Self.router()) { client in
            try await client.request("POST", "/form", headers: [("Content-Type", "multipart/form-data; boundary=\"\(boundary)\"")], body: body)
        }
        #expect(response.status == 200)
        #expect(response.text == "archive:club.zip:application/zip:504b0304000d0a2d2dff\ncsrf=abc123")
    }

    @Test func malformedFormsAre400() async throws {
        let (noBoundary, unclosed) = try await withServer(Self.router()) { client in
            let noBoundary = try await client.request("POST", "/form", headers: [("Content-Type", "multipart/form-data")],
                                                      body: Data("--x\r\n\r\n".utf8))
            let unclosed = try await client.request("POST", "/form", headers: [("Content-Type", "multipart/form-data; boundary=x")],
                                                    body: Data("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed".utf8))
            return (noBoundary, unclosed)
        }
        #expect(noBoundary.status == 400)
        #expect(noBoundary.text.contains("boundary"))
        #expect(unclosed.status == 400)
    }

    /// Another media type gets the router's `415`; a route without a form body has no form to read.
    @Test func aBodyThatIsNoFormHasNoForm() async throws {
        let (json, notDeclared) = try await withServer(Self.router()) { client in
            (try await client.request("POST", "/form", headers: [("Content-Type", "application/json")], body: Data("{}".utf8)),
             try await client.request("POST", "/json", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data("a=1".utf8)))
        }
        #expect(json.status == 415)
        #expect(json.text.contains("application/x-www-form-urlencoded"))
        #expect(notDeclared.status == 415)
    }
}
