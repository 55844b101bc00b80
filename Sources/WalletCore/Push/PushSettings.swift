import PasswrightLogging
import APNs
import Foundation
import Signing

/// Where pushes go: Apple's production APNs by default (pass updates only work there), or a host of
/// the operator's choosing with its own CA (a test stand-in).
public struct PushSettings: Sendable {
    /// `false` turns push refresh off: updates still queue in the outbox.
    public var enabled: Bool
    /// The APNs base URL.
    public var apnsURL: URL
    /// A CA file to trust instead of the system store.
    public var caFile: URL?
    /// HTTP/2 connections per pass type identity. Two by default: one libcurl thread sending every
    /// push's frames was the limit of a fan-out, at about 8,000 pushes a second on a 2-core machine.
    public var connectionsPerIdentity: Int

    /// Creates settings; the defaults send to Apple's production APNs.
    public init(enabled: Bool = true, apnsURL: URL = URL(string: "https://api.push.apple.com")!, caFile: URL? = nil, connectionsPerIdentity: Int = 2) {
        self.enabled = enabled
        self.apnsURL = apnsURL
        self.caFile = caFile
        self.connectionsPerIdentity = connectionsPerIdentity
    }

    /// One sender per pass type and order type identifier (the APNs topics), each an APNs client
    /// authenticated with that type's identity; a type whose identity cannot be used for TLS is left
    /// out, with a log line.
    public func senders(
        for passTypeIdentifiers: Set<String>, orderTypeIdentifiers: Set<String> = [], identities: IdentityDirectory, logger: Logger
    ) -> [String: any PushSender] {
        guard enabled else { return [:] }
        var senders: [String: any PushSender] = [:]
        let topics = passTypeIdentifiers.map { ($0, TypeIdentifierKind.pass) } + orderTypeIdentifiers.map { ($0, TypeIdentifierKind.order) }
        for (passTypeIdentifier, kind) in topics.sorted(by: { $0.0 < $1.0 }) {
            do {
                let identity = kind == .order
                    ? try identities.identity(forOrderTypeIdentifier: passTypeIdentifier)
                    : try identities.identity(forPassTypeIdentifier: passTypeIdentifier)
                let (certificate, key) = try identity.unsafeUnencryptedPEM()
                // Present the chain (signer + its WWDR intermediate), as APNs verifies it up to Apple's root.
                let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: identities.intermediates(), at: Date())
                let client = try APNsClient(
                    configuration: APNsConfiguration(url: apnsURL, caFile: caFile, connections: connectionsPerIdentity),
                    credentials: APNsCredentials(certificatePEM: certificate + Data(intermediate.pem.utf8), privateKeyPEM: key))
                senders[passTypeIdentifier] = APNsPushSender(client: client)
            } catch {
                logger.error("no APNs client for this pass type; its pushes stay queued", ["passTypeIdentifier": passTypeIdentifier, "error": "\(error)"])
            }
        }
        return senders
    }
}
