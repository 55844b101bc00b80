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
    /// What Wallet does with a pass that breaks a rule, which is what lint's wording and the build's
    /// gate both follow (one place, so the text cannot claim a refusal the build does not make).
    public enum WalletResponse: String, Sendable, Hashable {
        /// Wallet will not add the pass: "Sorry, your pass cannot be installed". Stops a build.
        case refuses
        /// Wallet adds the pass and ignores the key (or the entry), as if it were absent.
        case ignoresKey
        /// Wallet adds the pass but lays it out plainer: the classic layout instead of the richer one.
        case laysOutPlainer
    }

    /// Rules whose breach Wallet accepts, and what it does instead of refusing.
    static let fallbacks: [String: WalletResponse] = [
        "field.changeMessage": .ignoresKey, "field.textAlignment": .ignoresKey, "field.dataDetectorTypes": .ignoresKey,
        "field.row": .ignoresKey, "field.currencyCode": .ignoresKey, "field.numberStyle": .ignoresKey,
        "field.dateStyle": .ignoresKey, "groupingIdentifier": .ignoresKey, "featuredActions.count": .ignoresKey,
        "upcomingPassInformation.required": .ignoresKey, "upcomingPassInformation.uniqueIdentifiers": .ignoresKey,
        "poster.backgroundImage": .laysOutPlainer, "posterEventTicket.semantics": .laysOutPlainer,
        "posterEventTicket.nfc": .laysOutPlainer, "semanticBoardingPass.transitType": .laysOutPlainer,
        "semanticBoardingPass.semantics": .laysOutPlainer, "preferredStyleSchemes.style": .laysOutPlainer,
        "posterGeneric.fallback": .laysOutPlainer,
    ]

    /// What Wallet does with a pass that has an error of `rule`.
    public static func response(to rule: String) -> WalletResponse { fallbacks[rule] ?? .refuses }

    /// Whether an error of `rule` stops a build (the compiler's and the linter's gate before signing).
    public static func stopsBuild(rule: String) -> Bool { response(to: rule) == .refuses }

    /// `issue` as the build sees it: errors Wallet accepts become warnings.
    static func forBuild(_ issue: ValidationIssue) -> ValidationIssue {
        guard issue.severity == .error, response(to: issue.rule) != .refuses else { return issue }
        var downgraded = issue
        downgraded.severity = .warning
        return downgraded
    }
}
