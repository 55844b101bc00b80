import APNs
import Foundation
import Testing

@Suite("Configuration and outcome rules")
struct ConfigurationTests {
    private let credentials = APNsCredentials(
        certificatePEM: Data("-----BEGIN CERTIFICATE-----".utf8),
        privateKeyPEM: Data("-----BEGIN PRIVATE KEY-----".utf8),
        privateKeyPassword: "hunter2-password"
    )

    @Test("Defaults are Apple's production service with a day of expiry")
    func defaults() {
        let configuration = APNsConfiguration()
        #expect(configuration.url.absoluteString == "https://api.push.apple.com")
        #expect(configuration.caFile == nil)
        #expect(configuration.expiration == .seconds(86_400))
    }

    @Test("Configurations that cannot work are refused with the field named", arguments: [
        (APNsConfiguration(url: URL(string: "http://api.push.apple.com")!), "url"),
        (APNsConfiguration(url: URL(string: "https://api.push.apple.com/3/device")!), "url"),
        (APNsConfiguration(maxConcurrentStreams: 0), "maxConcurrentStreams"),
        (APNsConfiguration(connections: 0), "connections"),
        (APNsConfiguration(connections: 17), "connections"),
        (APNsConfiguration(requestTimeout: .zero), "requestTimeout"),
        (APNsConfiguration(expiration: .seconds(-1)), "expiration"),
    ])
    func invalidConfiguration(configuration: APNsConfiguration, field: String) {
        #expect {
            _ = try APNsClient(configuration: configuration, credentials: credentials)
        } throws: { error in
            guard case APNsError.invalidConfiguration(let named, _) = error else { return false }
            return named == field
        }
    }

    @Test("Credentials never print the key or password")
    func credentialsAreRedacted() {
        let printed = "\(credentials)"
        #expect(!printed.contains("PRIVATE KEY"))
        #expect(!printed.contains("hunter2"))
        #expect(printed.contains("redacted"))
    }

    @Test("Answers the stand-in does not produce map by Apple's table", arguments: [
        (APNsResponse(status: 410, reason: "ExpiredToken"), APNsOutcome.unregistered(since: nil)),
        (APNsResponse(status: 503, reason: "ServiceUnavailable"), .retry(after: .backOff)),
        (APNsResponse(status: 403, reason: "BadCertificateEnvironment"), .credentialsRejected(reason: "BadCertificateEnvironment")),
        (APNsResponse(status: 405, reason: "MethodNotAllowed"), .requestRejected(reason: "MethodNotAllowed")),
        (APNsResponse(status: 413), .requestRejected(reason: "HTTP 413")),
    ])
    func outcomeTable(response: APNsResponse, outcome: APNsOutcome) {
        #expect(response.outcome == outcome)
    }
}
