import PassModel

/// What richer layouts recommend beyond their minimums (the minimums are PassModel errors).
enum SchemeRules: LintRules {
    static func findings(in context: LintContext) -> [Finding] {
        let pass = context.pass
        guard pass.preferredStyleSchemes.contains(.posterEventTicket) else { return [] }
        var findings: [Finding] = []
        if pass.relevantDates.isEmpty, pass.locations.isEmpty, pass.beacons.isEmpty {
            findings.append(Finding(
                rule: "poster.liveActivity", severity: .warning, location: context.at("relevantDates"), before: Finding.missing,
                after: JSONTree.member("relevantDates", .array([.object(["startDate": .string("{{event.doors}}"), "endDate": .string("{{event.end}}")])])),
                effect: "On the day, the ticket turns into a Live Activity on the lock screen instead of waiting to be opened."))
        }
        let tags = pass.semantics ?? SemanticTags()
        for (key, present) in [("venueRegionName", tags.venueRegionName != nil), ("venueRoom", tags.venueRoom != nil)] where !present {
            findings.append(Finding(
                rule: "poster.recommendedSemantics", severity: .warning, location: context.at("semantics.\(key)"), before: Finding.missing,
                after: JSONTree.member(key, .string("{{venue.\(key == "venueRoom" ? "room" : "region")}}")),
                effect: "The poster and event guide say where inside the venue to go instead of leaving that line blank."))
        }
        return findings
    }
}
