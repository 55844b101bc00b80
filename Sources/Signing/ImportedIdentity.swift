import Foundation

/// What `IdentityImport` wrote, for the CLI to report and for tests to check.
public struct ImportedIdentity: Sendable {
    /// The Pass Type ID certificate now in the identity folder.
    public let certificate: Certificate
    /// The WWDR intermediate that issued it, which every signature will embed.
    public let intermediate: Certificate
    /// `<identities>/<passTypeIdentifier>/`, holding `certificate.pem` and `private-key.pem`.
    public let folder: URL
    /// Whether `private-key.pem` was written encrypted (the server then needs the passphrase).
    public let keyEncrypted: Bool
    /// The intermediate's file when it was new to `wwdr/` and written there.
    public let addedIntermediate: URL?
    /// Things that work today but need attention soon (an expiry within 30 days).
    public let warnings: [String]
}
