import PassModel

/// Which validation errors stop a build. Only what Wallet really refuses does: a pass it will not
/// add ("Sorry, your pass cannot be installed") or cannot sign or verify. What Wallet accepts but
/// shows plainer — a poster or semantic layout that falls back to the classic one, a key it ignores
/// on this style, a format hint it cannot apply — is built and reported as a warning; `passwright
/// lint` still lists it as an error, since the holder does not see the pass as designed.
///
/// The standard is Apple's: what Wallet does with the pass on a device and what Apple's own pass
/// validator checks (it does not check image scales, for instance).
public enum BuildPolicy {
    /// Rules whose breach Wallet accepts, showing the pass with a fallback or ignoring the key.
    public static let acceptedByWallet: Set<String> = [
        "field.changeMessage", "field.textAlignment", "field.dataDetectorTypes", "field.row",
        "field.currencyCode", "field.numberStyle", "field.dateStyle", "groupingIdentifier",
        "featuredActions.count", "poster.backgroundImage", "posterEventTicket.semantics",
        "posterEventTicket.nfc", "semanticBoardingPass.transitType", "semanticBoardingPass.semantics",
        "preferredStyleSchemes.style", "posterGeneric.fallback", "upcomingPassInformation.required",
        "upcomingPassInformation.uniqueIdentifiers",
    ]

    /// Whether an error of `rule` stops a build (the compiler's and the linter's gate before signing).
    public static func stopsBuild(rule: String) -> Bool { !acceptedByWallet.contains(rule) }

    /// `issue` as the build sees it: errors Wallet accepts become warnings.
    static func forBuild(_ issue: ValidationIssue) -> ValidationIssue {
        guard issue.severity == .error, acceptedByWallet.contains(issue.rule) else { return issue }
        var downgraded = issue
        downgraded.severity = .warning
        return downgraded
    }
}
