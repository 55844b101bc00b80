import Foundation
import PasswrightTesting
import Testing
@testable import HTTPServer

/// Every transition of a request's state machine, without a socket: the executor's side of each
/// step is the action the machine returns.
@Suite struct RequestStateMachineTests {
    private static let echo = HTTPRequestPlan { request in .bytes(request.body, contentType: "application/octet-stream") }

    private static func head(_ headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/upload", headers: headers)
    }

    /// A machine past an accepted head, receiving a body.
    private static func receiving(limit: Int = 10, plan: HTTPRequestPlan = echo, headers: HTTPHeaders = [:]) -> RequestStateMachine {
        var machine = RequestStateMachine(defaultBodyLimit: limit, lingerLimit: limit)
        #expect(machine.headReceived(.accepted(head(headers), plan)).isProceed)
        return machine
    }

    /// A machine whose responder was started and is still running after its first step (and, if
    /// `suspended`, whose connection is parked).
    private static func running(suspended: Bool) -> RequestStateMachine {
        var machine = receiving()
        #expect(machine.bodyEnded().startedRequest != nil)
        #expect(machine.firstStepEnded().isSuspend)
        if suspended { #expect(machine.suspended().isProceed) }
        return machine
    }

    private static func chunk(_ machine: inout RequestStateMachine, _ count: Int) -> RequestStateMachine.Action {
        let bytes = [UInt8](repeating: 0x61, count: count)
        return bytes.withUnsafeBytes { machine.bodyChunk($0) }
    }

    private static func detail(_ response: HTTPResponse) throws -> String? {
        try JSONDecoder().decode(HTTPProblem.self, from: response.body).detail
    }

    // MARK: Head

    @Test func refusedHeadIs400AndClosesTheConnection() throws {
        var machine = RequestStateMachine(defaultBodyLimit: 10)
        #expect(machine.expectsHead)
        let response = try #require(machine.headReceived(.refused("Host appears more than once")).answered)
        #expect(response.status == .badRequest)
        #expect(response.headers["Connection"] == "close")
        #expect(try Self.detail(response) == "Host appears more than once.")
        #expect(!machine.expectsHead)
        #expect(machine.bodyEnded().isProceed)  // nothing more to say
    }

    /// A declared length over the limit is answered from the head, before any body byte: a client that
    /// waits to hear back before sending (with or without `Expect: 100-continue`) learns at once.
    @Test(arguments: [
        ["Content-Length": "11"], ["Content-Length": "111"], ["Content-Length": "50", "Expect": "100-continue"],
    ])
    func declaredLengthOverTheLimitIs413BeforeAnyByteIsRead(headers: [String: String]) throws {
        var machine = RequestStateMachine(defaultBodyLimit: 10, lingerLimit: 100)
        var head = HTTPHeaders()
        for (name, value) in headers { head[name] = value }
        let response = try #require(machine.headReceived(.accepted(Self.head(head), Self.echo)).answered)
        #expect(response.status == .contentTooLarge)
        #expect(try Self.detail(response) == "The request body is larger than the 10 bytes this resource accepts.")
        #expect(response.headers["Connection"] == nil)  // libmicrohttpd closes on its own
        #expect(Self.chunk(&machine, 11).isProceed)  // what still arrives is ignored
        #expect(machine.bodyEnded().isProceed)
    }

    @Test func thePlansLimitWinsOverTheDefault() throws {
        let small = HTTPRequestPlan(maxBodySize: 4, respond: Self.echo.respond)
        var machine = RequestStateMachine(defaultBodyLimit: 1000)
        #expect(try #require(machine.headReceived(.accepted(Self.head(["Content-Length": "5"]), small)).answered).status == .contentTooLarge)

        let large = HTTPRequestPlan(maxBodySize: 100, respond: Self.echo.respond)
        var generous = RequestStateMachine(defaultBodyLimit: 10)
        #expect(generous.headReceived(.accepted(Self.head(["Content-Length": "50"]), large)).isProceed)
        #expect(Self.chunk(&generous, 50).isProceed)
        #expect(generous.bodyEnded().startedRequest?.body.count == 50)
    }

    // MARK: Body

    @Test func bodyChunksAreBufferedThenTheResponderStarts() throws {
        var machine = Self.receiving(headers: ["Content-Length": "10"])
        #expect(Self.chunk(&machine, 4).isProceed)
        #expect(Self.chunk(&machine, 6).isProceed)
        let request = try #require(machine.bodyEnded().startedRequest)
        #expect(request.body == Data(repeating: 0x61, count: 10))
        #expect(request.path == "/upload")
        guard case .running(suspended: false) = machine.state else { Issue.record("not running: \(machine.state)"); return }
    }

    @Test func bodyOutgrowingTheLimitIsDiscardedThenAnswered413() throws {
        var machine = Self.receiving(limit: 10)
        #expect(Self.chunk(&machine, 8).isProceed)
        #expect(Self.chunk(&machine, 8).isProceed)  // 16 > 10: from now on dropped
        guard case .discarding(limit: 10, dropped: 16) = machine.state else { Issue.record("not discarding: \(machine.state)"); return }
        #expect(Self.chunk(&machine, 4).isProceed)  // 20: not past twice the limit yet
        let response = try #require(machine.bodyEnded().answered)
        #expect(response.status == .contentTooLarge)
        #expect(response.headers["Connection"] == nil)  // the whole body was read: the connection can go on
    }

    @Test func bodyGoingPastTwiceTheLimitIs413AndClosesTheConnection() throws {
        var machine = Self.receiving(limit: 10)
        #expect(Self.chunk(&machine, 15).isProceed)
        let response = try #require(Self.chunk(&machine, 6).answered)  // 21 > 20
        #expect(response.status == .contentTooLarge)
        #expect(response.headers["Connection"] == "close")
        #expect(Self.chunk(&machine, 100).isProceed)  // what still arrives is ignored
        #expect(machine.bodyEnded().isProceed)
    }

    // MARK: Responder

    @Test func responseWithinTheFirstStepIsAnsweredWithoutSuspending() throws {
        var machine = Self.receiving()
        #expect(machine.bodyEnded().startedRequest != nil)
        #expect(machine.responderFinished(.empty(status: .accepted)).isProceed)  // on the daemon thread, inline
        #expect(try #require(machine.firstStepEnded().answered).status == .accepted)
        #expect(machine.suspended().isProceed)  // nothing to resume: it was never suspended
        #expect(machine.bodyEnded().isProceed)
    }

    @Test func closeWithinTheFirstStepIsAnswered503WithoutSuspending() throws {
        var machine = Self.receiving()
        #expect(machine.bodyEnded().startedRequest != nil)
        #expect(machine.serverClosed().isProceed)
        #expect(try #require(machine.firstStepEnded().answered).status == .serviceUnavailable)
        #expect(machine.responderFinished(.empty(status: .ok)).isProceed)
    }

    @Test func responseAfterTheSuspensionResumesOnceAndIsAnsweredOnTheNextCall() throws {
        var machine = Self.running(suspended: true)
        #expect(machine.responderFinished(.empty(status: .accepted)).isResume)
        #expect(machine.suspended().isProceed)  // no second resume
        let response = try #require(machine.bodyEnded().answered)
        #expect(response.status == .accepted)
        #expect(machine.bodyEnded().isProceed)
    }

    @Test func responseBeforeTheSuspensionWaitsForIt() throws {
        var machine = Self.running(suspended: false)
        #expect(machine.responderFinished(.empty(status: .accepted)).isProceed)  // resuming now would be lost
        #expect(machine.suspended().isResume)
        #expect(machine.suspended().isProceed)
        #expect(try #require(machine.bodyEnded().answered).status == .accepted)
    }

    @Test func timeLimitAnswers503AndTheLateResponseIsIgnored() throws {
        var machine = Self.running(suspended: true)
        #expect(machine.timeLimitExceeded().isResume)
        #expect(machine.responderFinished(.empty(status: .ok)).isProceed)
        let response = try #require(machine.bodyEnded().answered)
        #expect(response.status == .serviceUnavailable)
        #expect(try Self.detail(response) == "The request took longer than the server allows.")
    }

    // MARK: Shutdown

    @Test func closeWhileRunningAnswers503AndTheLaterResponseIsIgnored() throws {
        var machine = Self.running(suspended: true)
        #expect(machine.serverClosed().isResume)
        #expect(machine.responderFinished(.empty(status: .ok)).isProceed)  // finish after close
        #expect(machine.timeLimitExceeded().isProceed)
        #expect(machine.serverClosed().isProceed)  // a second close resumes nothing
        let response = try #require(machine.bodyEnded().answered)
        #expect(response.status == .serviceUnavailable)
        #expect(try Self.detail(response) == "The server is shutting down.")
    }

    @Test func closeDuringTheSuspensionResumesOnceItIsDone() throws {
        var machine = Self.running(suspended: false)
        #expect(machine.serverClosed().isProceed)
        #expect(machine.responderFinished(.empty(status: .ok)).isProceed)
        #expect(machine.suspended().isResume)
        #expect(try #require(machine.bodyEnded().answered).status == .serviceUnavailable)
    }

    @Test func closeBeforeTheBodyEndsAnswers503WithoutStartingTheResponder() throws {
        var machine = Self.receiving()
        #expect(machine.serverClosed().isProceed)
        #expect(Self.chunk(&machine, 3).isProceed)
        let response = try #require(machine.bodyEnded().answered)
        #expect(response.status == .serviceUnavailable)
        #expect(try Self.detail(response) == "The server is shutting down.")
    }

    @Test func aClosedServerStillRefusesBadHeadsAndOversizedBodiesAsBefore() throws {
        var refused = RequestStateMachine(defaultBodyLimit: 10)
        #expect(refused.serverClosed().isProceed)
        #expect(try #require(refused.headReceived(.refused("bad")).answered).status == .badRequest)

        var oversized = RequestStateMachine(defaultBodyLimit: 10)
        #expect(oversized.serverClosed().isProceed)
        #expect(oversized.headReceived(.accepted(Self.head(), Self.echo)).isProceed)
        #expect(Self.chunk(&oversized, 11).isProceed)
        #expect(try #require(oversized.bodyEnded().answered).status == .contentTooLarge)
    }
}

extension RequestStateMachine.Action {
    var isProceed: Bool {
        if case .proceed = self { return true }
        return false
    }

    var isSuspend: Bool {
        if case .suspend = self { return true }
        return false
    }

    var isResume: Bool {
        if case .resume = self { return true }
        return false
    }

    var answered: HTTPResponse? {
        if case .answer(let response) = self { return response }
        return nil
    }

    var startedRequest: HTTPRequest? {
        if case .startResponder(let request, _) = self { return request }
        return nil
    }
}
