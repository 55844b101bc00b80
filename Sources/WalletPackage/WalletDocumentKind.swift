/// What kind of signed Wallet document an archive is: the facts that differ between a pass and an
/// order while the package recipe (files → manifest → detached CMS signature → zip) stays the same.
///
/// A closed set of values rather than free parameters, so a pass can't be given an order's
/// manifest hash by mistake.
public struct WalletDocumentKind: Sendable, Hashable {
    /// The JSON document at the archive root: `pass.json`, `order.json`.
    public let payloadFile: String
    /// The manifest's hash.
    public let manifestHash: ManifestHash
    /// The archive's file extension, without the dot: `pkpass`, `order`.
    public let fileExtension: String
    /// The archive's media type, for downloads and the web service.
    public let mediaType: String
    /// The largest archive Wallet accepts, when Apple documents one.
    public let maximumArchiveSize: Int?

    /// A pass (Apple's "Building a Pass"): `pass.json`, SHA-1 manifest, `.pkpass`.
    public static let pass = WalletDocumentKind(
        payloadFile: "pass.json", manifestHash: .sha1, fileExtension: "pkpass",
        mediaType: "application/vnd.apple.pkpass", maximumArchiveSize: nil)

    /// An order (Apple's "Building a distributable order package"): `order.json`, SHA-256 manifest,
    /// `.order`, and "the total size of the bundle must be below 5 MB" (Apple's "Return"), read as
    /// 5,000,000 bytes, the stricter reading.
    public static let order = WalletDocumentKind(
        payloadFile: "order.json", manifestHash: .sha256, fileExtension: "order",
        mediaType: "application/vnd.apple.finance.order", maximumArchiveSize: 5_000_000)

    /// The files every archive of this kind carries besides its payload and packaged files.
    public static let signatureFiles: Set<String> = ["manifest.json", "signature"]
}
