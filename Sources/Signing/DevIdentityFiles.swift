import Foundation

/// Where `DevCertificates.create` wrote a development identity, for printing and for tests.
public struct DevIdentityFiles: Sendable {
    /// The development root CA certificate: trust it when verifying dev-signed passes.
    public var rootCertificate: URL
    /// The development WWDR-shaped intermediate, in the identity directory's `wwdr/` folder.
    public var intermediate: URL
    /// The Pass Type ID-shaped signer certificate.
    public var certificate: URL
    /// The signer's private key (mode 0600).
    public var privateKey: URL
}
