/// Settings that apply to every pass a compiler builds.
public struct CompileOptions: Sendable {
    /// The base URL of the Wallet web service written into each pass (`https://example.com/wallet/`),
    /// overriding the template's; `nil` keeps the template's, if any.
    public var webServiceURL: String?
    /// Length of generated `authenticationToken`s; Apple's minimum is 16, the default is 32.
    public var tokenLength: Int

    /// Creates options.
    public init(webServiceURL: String? = nil, tokenLength: Int = 32) {
        self.webServiceURL = webServiceURL
        self.tokenLength = max(tokenLength, 16)
    }
}
