import Testing
@testable import HTTPClient

/// When a response counts as whole, so that a transfer libcurl ends with an error is still an answer
/// (RFC 9113 §8.1's early answer and reset), without a socket.
@Suite("Response completeness")
struct ResponseProgressTests {
    private func progress(_ lines: [String], body: String = "") -> ResponseProgress {
        var progress = ResponseProgress()
        for line in lines { progress.receiveHeaderLine(line) }
        Array(body.utf8).withUnsafeBytes { progress.receiveBody($0) }
        return progress
    }

    @Test("A final status whose header block ended, with no body, is complete")
    func statusWithoutBody() {
        let response = progress(["HTTP/2 200 \r\n", "apns-id: 5E1D-A\r\n", "\r\n"])
        #expect(response.completeStatus == 200)
        #expect(response.header("apns-id") == "5E1D-A")
    }

    @Test("A body is complete once it is as long as content-length says")
    func bodyOfAnnouncedLength() {
        let body = #"{"reason":"BadDeviceToken"}"#
        let head = ["HTTP/2 400 \r\n", "content-length: \(body.utf8.count)\r\n", "\r\n"]
        #expect(progress(head, body: body).completeStatus == 400)
        #expect(progress(head, body: String(body.dropLast())).completeStatus == nil)
    }

    @Test("A body without content-length, or headers that have not ended, may be cut short")
    func incomplete() {
        #expect(progress(["HTTP/2 400 \r\n", "\r\n"], body: #"{"reason":"#).completeStatus == nil)
        #expect(progress(["HTTP/2 200 \r\n", "apns-id: x\r\n"]).completeStatus == nil)
        #expect(ResponseProgress().completeStatus == nil)
    }

    @Test("An interim response is not the answer; a new status line starts over")
    func interimAndRetried() {
        #expect(progress(["HTTP/2 100 \r\n", "\r\n"]).completeStatus == nil)
        #expect(progress(["HTTP/2 100 \r\n", "\r\n", "HTTP/2 200 \r\n", "\r\n"]).completeStatus == 200)
        let retried = progress(["HTTP/2 200 \r\n", "apns-id: old\r\n", "\r\n", "HTTP/2 503 \r\n"])
        #expect(retried.completeStatus == nil)
        #expect(retried.header("apns-id") == nil)
    }
}
