// Fuzzes the web service's request handling (routing, path parameters, query items, headers and
// bodies of every route) in-process, against a real SQLite store holding one issued and registered
// pass whose tokens appear in the seed corpus. The input is an HTTP/1.1-style head and body:
//
//     METHOD TARGET\n  Name: value\n  …  \n\n  body
//
// Every request must be answered with a status below 500: a 5xx means a handler failed on input it
// should have refused, so it stops the fuzzer with the request that caused it.
import PasswrightLogging
import Foundation
import FuzzSupport
import HTTPServer
import Storage
import WalletCore
import WalletHTTP

/// The fixed secrets the seed corpus uses (`Fuzz/Corpus/FuzzHTTPRequest`).
enum Seed {
    static let adminToken = "fuzz-admin-token-0123456789"
    static let passTypeIdentifier = "pass.dev.passwright.loyalty"
    static let serialNumber = "FUZZ-0001"
    static let authenticationToken = "fuzz-pass-token-0123456789abcdef"
    static let deviceLibraryIdentifier = "fuzz-device-1"
}

let service: WalletService = {
    do {
        let folder = try Fixtures.scratchFolder("http")
        let identities = folder.appendingPathComponent("identities", isDirectory: true)
        let passTypes = try FileManager.default.contentsOfDirectory(atPath: Fixtures.templates.path).sorted()
            .filter { FileManager.default.fileExists(atPath: Fixtures.templates.appendingPathComponent("\($0)/pass.json").path) }
            .map { "pass.dev.passwright.\($0)" }
        try Fixtures.devIdentities(in: identities, passTypeIdentifiers: passTypes)
        // The sample order template's type, so the order routes are fuzzed past signing too.
        try Fixtures.devOrderIdentity(in: identities, orderTypeIdentifier: "order.dev.passwright.shop")
        let configuration = ServiceConfiguration(
            database: try DatabaseConfiguration(url: "sqlite:\(folder.appendingPathComponent("wallet.sqlite").path)"),
            templatesDirectory: Fixtures.templates, identitiesDirectory: identities, publicURL: "https://fuzz.example",
            adminToken: Seed.adminToken, downloadLinkKey: Data("fuzz-link-key".utf8))
        let service = try WalletService(
            configuration: configuration, http: HTTPServerConfiguration(hostname: "127.0.0.1", port: 0),
            logger: Logger(label: "fuzz", level: .error) { _ in })
        // Running opens and migrates the database and imports the templates; it runs for the
        // fuzzer's whole life, and requests go in through respond(to:) once it listens. Detached:
        // this top-level code is on the main actor, whose thread runBlocking holds while it waits.
        Task.detached { try await service.run() }
        let started = runBlocking { () -> Result<Int, any Error> in
            do { return .success(try await service.waitUntilListening()) } catch { return .failure(error) }
        }
        _ = try started.get()
        return service
    } catch {
        fatalError("fuzz fixtures: \(error)")
    }
}()

/// Issues the pass and registers the device the seed corpus talks about.
func seed() {
    let issue = #"{"template":"loyalty","serialNumber":"\#(Seed.serialNumber)","data":{"member":{"id":"M-1","name":"Ada"},"points":10,"tier":"Gold","authenticationToken":"\#(Seed.authenticationToken)"}}"#
    let requests = [
        HTTPRequest(method: .post, target: "/api/v1/passes",
                    headers: ["Authorization": "Bearer \(Seed.adminToken)", "Content-Type": "application/json"], body: Data(issue.utf8)),
        HTTPRequest(method: .post, target: "/wallet/v1/devices/\(Seed.deviceLibraryIdentifier)/registrations/\(Seed.passTypeIdentifier)/\(Seed.serialNumber)",
                    headers: ["Authorization": "ApplePass \(Seed.authenticationToken)", "Content-Type": "application/json"],
                    body: Data(#"{"pushToken":"00ff00ff"}"#.utf8)),
    ]
    for request in requests {
        let response = runBlocking { await service.respond(to: request) }
        precondition((200..<300).contains(response.status.code), "fuzz seed: \(request.method) \(request.rawPath) answered \(response.status)")
    }
}

/// Splits an input into a request; `nil` when it has no request line.
func request(from data: Data) -> HTTPRequest? {
    let separator = data.firstRange(of: Data("\n\n".utf8))
    let head = String(decoding: data[..<(separator?.lowerBound ?? data.endIndex)], as: UTF8.self)
    let body = separator.map { data[$0.upperBound...] } ?? Data()
    var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    guard !lines.isEmpty else { return nil }
    let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1)
    guard requestLine.count == 2 else { return nil }
    var headers = HTTPHeaders()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return HTTPRequest(method: HTTPMethod(rawValue: String(requestLine[0])), target: String(requestLine[1]), headers: headers, body: Data(body))
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let request = request(from: FuzzDriver.data(bytes, count)) else { return 0 }
    let response = runBlocking { await service.respond(to: request) }
    precondition(response.status.code < 500, """
        \(request.method) \(request.rawPath)\(request.rawQuery.map { "?" + $0 } ?? "") answered \(response.status): \
        \(String(decoding: response.body.prefix(500), as: UTF8.self))
        """)
    return 0
}

seed()
FuzzDriver.run(testOneInput)
