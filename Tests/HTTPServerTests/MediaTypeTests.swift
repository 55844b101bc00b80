import Foundation
import HTTPServer
import Testing

/// `Content-Type` values as clients send them, and the HTTP-dates of `Last-Modified`.
@Suite struct MediaTypeTests {
    @Test func parsesTypeSubtypeAndParameters() throws {
        let type = try #require(MediaType("Multipart/Form-Data; Boundary=\"a b;c\\\"d\" ;charset=UTF-8"))
        #expect(type.type == "multipart" && type.subtype == "form-data")
        #expect(type.boundary == "a b;c\"d", "quoted values are unquoted, escapes undone, case kept")
        #expect(type.charset == "UTF-8")
        #expect(type.accepts(.multipartForm) && MediaType.multipartForm.accepts(type))
        #expect(MediaType(type.description) == type, "the description parses back to the same value")
    }

    @Test(arguments: ["", "json", "application/", "/json", "application/json;", "text/plain; charset", "a/b; c=\"open", "a b/c", "application/json\u{FFFD}"])
    func refusesWhatIsNotAMediaType(text: String) {
        if text == "application/json;" {
            #expect(MediaType(text) == .json, "a trailing ';' is tolerated")
        } else {
            #expect(MediaType(text) == nil, "'\(text)'")
        }
    }

    @Test func jsonAcceptsStructuredSyntaxSuffixesOnly() throws {
        #expect(MediaType.json.accepts(try #require(MediaType("application/problem+json"))))
        #expect(MediaType.json.accepts(try #require(MediaType("APPLICATION/JSON; charset=utf-8"))))
        #expect(!MediaType.json.accepts(try #require(MediaType("text/json"))))
        #expect(!MediaType.json.accepts(try #require(MediaType("application/jsonx"))))
        #expect(!MediaType.zip.accepts(.json))
    }

    @Test func requestContentType() {
        let request = HTTPRequest(method: .post, target: "/", headers: ["Content-Type": "application/zip"])
        #expect(request.contentType == .zip)
        #expect(HTTPRequest(method: .post, target: "/").contentType == nil)
    }

    @Test func httpDatesRoundTripAndRefuseOtherFormats() throws {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
    }
}
