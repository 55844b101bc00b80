import PassCompiler

extension Finding {
    /// Whether this finding stops `build`, `batch` and the server from signing: an error Wallet
    /// refuses the pass for. Errors Wallet accepts with a fallback (``BuildPolicy``) do not.
    public var stopsBuild: Bool { severity == .error && BuildPolicy.stopsBuild(rule: rule) }
}
