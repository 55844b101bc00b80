import Foundation
import HTTPServer
import Testing

@Suite struct HTTPRequestTests {
    @Test func splitsAndDecodesTarget() {
        let request = HTTPRequest(method: .get, target: "/a%20b/c?name=J%C3%BCrgen&tag=x&tag=y+z&flag&bad=%ZZ")
        #expect(request.rawPath == "/a%20b/c")
        #expect(request.path == "/a b/c")
        #expect(request.rawQuery == "name=J%C3%BCrgen&tag=x&tag=y+z&flag&bad=%ZZ")
        #expect(request.query("name") == "Jürgen")
        #expect(request.queryItems.filter { $0.name == "tag" }.map(\.value) == ["x", "y z"])
        #expect(request.query("flag") == "")
        #expect(request.query("bad") == "%ZZ")
        #expect(request.query("missing") == nil)
    }

    @Test func headersAreCaseInsensitiveAndKeepDuplicates() {
        var headers: HTTPHeaders = ["Authorization": "ApplePass abc", "X-Tag": "1"]
        headers.add(name: "x-tag", value: "2")
        #expect(headers["authorization"] == "ApplePass abc")
        #expect(headers["AUTHORIZATION"] == "ApplePass abc")
        #expect(headers.values(for: "X-TAG") == ["1", "2"])
        headers["x-tag"] = "3"
        #expect(headers.values(for: "X-Tag") == ["3"])
        headers["x-tag"] = nil
        #expect(headers["X-Tag"] == nil)
    }

    @Test func methodKeepsUnknownTokens() {
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(HTTPMethod(rawValue: "get") == .other("get"))
        #expect(HTTPMethod(rawValue: "PROPFIND").rawValue == "PROPFIND")
    }

    @Test func problemFollowsRFC9457() throws {
        let response = HTTPResponse.problem(status: .conflict, detail: "Serial already issued.")
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["type"] as? String == "about:blank")
        #expect(object["title"] as? String == "Conflict")
        #expect(object["status"] as? Int == 409)
        #expect(object["detail"] as? String == "Serial already issued.")
    }

    @Test func jsonEncodesValues() throws {
        struct Tag: Encodable { var serial = "A1" }
        let response = try HTTPResponse.json(Tag(), status: .created)
        #expect(response.status.code == 201)
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"serial":"A1"}"#)
    }
}

@Suite struct HeaderWhitespaceTests {
    @Test(arguments: [
        ("  token-1 \t", "token-1"), ("token-1", "token-1"), ("\t a b \t", "a b"), ("   ", ""), ("", ""),
        (" \u{00A0}x\u{00A0} ", "\u{00A0}x\u{00A0}"),  // only space and tab are a header's optional whitespace
    ])
    func optionalWhitespaceIsTrimmedAndNothingElse(value: String, trimmed: String) {
        #expect(String(value[...].trimmingHTTPWhitespace) == trimmed)
    }
}
