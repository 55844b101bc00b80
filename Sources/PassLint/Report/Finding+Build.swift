import PassCompiler

extension Finding {
    /// Whether this finding stops `build`, `batch` and the server from signing: an error Wallet
    /// refuses the pass for. Errors Wallet accepts with a fallback (``BuildPolicy``) do not.
    public var stopsBuild: Bool { severity == .error && BuildPolicy.stopsBuild(rule: rule) }

    /// The effect of every finding Wallet refuses the pass for, in one place: a finding that does
    /// not stop the build must never say it (``PassLintTests`` check each rule's words against it).
    public static let refusedEffect = "Wallet refuses the pass: the holder sees \"Sorry, your pass cannot be installed\" instead of the pass."
}
