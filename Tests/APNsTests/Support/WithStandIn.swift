import APNs
import Foundation
import PasswrightTesting

/// Runs `body` against a fresh PKI and stand-in, and always stops the stand-in, shuts the clients down
/// and deletes the keys.
func withStandIn<Result>(
    _ options: StandInOptions = StandInOptions(),
    _ body: (StandInHarness) async throws -> Result
) async throws -> Result {
    let pki = try TestPKI.make()
    defer { try? FileManager.default.removeItem(at: pki.directory) }
    let standIn = try StandIn(pki: pki, options: options)
    let harness = StandInHarness(pki: pki, standIn: standIn)
    return try await withCleanup { try await body(harness) } cleanup: {
        await harness.shutdownClients()
        standIn.stop()
    }
}

/// What a test gets: the stand-in, the PKI, and clients aimed at the stand-in.
final class StandInHarness {
    let pki: TestPKI
    let standIn: StandIn
    private var clients: [APNsClient] = []

    init(pki: TestPKI, standIn: StandIn) {
        self.pki = pki
        self.standIn = standIn
    }

    /// A client trusting the test CA and presenting the test client certificate.
    func client(
        encryptedKey: Bool = false,
        maxConcurrentStreams: Int = 100,
        connections: Int = 1,
        requestTimeout: Duration = .seconds(30),
        url: URL? = nil
    ) throws -> APNsClient {
        let credentials = APNsCredentials(
            certificatePEM: pki.clientCertificatePEM,
            privateKeyPEM: encryptedKey ? pki.clientEncryptedKeyPEM : pki.clientKeyPEM,
            privateKeyPassword: encryptedKey ? pki.clientKeyPassword : nil
        )
        let configuration = APNsConfiguration(
            url: url ?? standIn.url, caFile: pki.caFile,
            maxConcurrentStreams: maxConcurrentStreams, connections: connections, requestTimeout: requestTimeout
        )
        let client = try APNsClient(configuration: configuration, credentials: credentials)
        clients.append(client)
        return client
    }

    func shutdownClients() async {
        for client in clients { await client.shutdown() }
    }
}
