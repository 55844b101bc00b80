import Foundation
import PassModel

/// A pass lives on: it updates, comes up at the right time and place, and leaves when it stops
/// meaning anything.
enum LifecycleRules: LintRules {
    /// A lock-screen notice line holds about this many characters.
    static let changeMessageLength = 50

    static func findings(in context: LintContext) -> [Finding] {
        webService(context) + expiry(context) + locations(context) + dates(context) + changeMessages(context)
    }

    private static func webService(_ context: LintContext) -> [Finding] {
        guard context.pass.webServiceURL == nil, context.webServiceURL == nil else { return [] }
        return [Finding(
            rule: "lifecycle.noWebService", severity: .warning, location: context.at("webServiceURL"), before: Finding.missing,
            after: JSONTree.member("webServiceURL", .string("https://wallet.example.com/passes/")) + " (or build with --web-service-url)",
            effect: "Changes reach the holder's pass (a new gate, a new balance) instead of it staying a screenshot of the day it was issued.")]
    }

    private static func expiry(_ context: LintContext) -> [Finding] {
        let pass = context.pass
        guard let style = pass.style, [.eventTicket, .boardingPass, .coupon].contains(style),
              pass.expirationDate == nil, pass.relevantDates.isEmpty else { return [] }
        let end = pass.semantics?.eventEndDate?.description ?? pass.relevantDate?.description ?? "{{expires}}"
        return [Finding(
            rule: "lifecycle.noExpiry", severity: .warning, location: context.at("expirationDate"), before: Finding.missing,
            after: JSONTree.member("expirationDate", .string(end)),
            effect: "The \(GlanceRules.noun(for: pass)) greys out and moves aside once it is used up, instead of lingering at the top of Wallet.")]
    }

    private static func locations(_ context: LintContext) -> [Finding] {
        context.pass.locations.enumerated().compactMap { index, location in
            guard location.relevantText == nil else { return nil }
            let path = "locations[\(index)].relevantText"
            return Finding(
                rule: "lifecycle.locationText", severity: .warning, location: context.at(path), before: Finding.missing,
                after: JSONTree.member("relevantText", .string("Your \(GlanceRules.noun(for: context.pass)) is ready")),
                effect: "Arriving at the place shows a line saying why the pass came up, not just a bare card on the lock screen.")
        }
    }

    private static func dates(_ context: LintContext) -> [Finding] {
        let pass = context.pass
        var findings: [Finding] = []
        var relevant: [(String, W3CDate)] = []
        if let date = pass.relevantDate { relevant.append(("relevantDate", date)) }
        for (index, entry) in pass.relevantDates.enumerated() {
            if let end = entry.endDate { relevant.append(("relevantDates[\(index)].endDate", end)) }
            if let date = entry.date { relevant.append(("relevantDates[\(index)].date", date)) }
        }
        for (path, date) in relevant where date.date < context.now && !context.subject.isUnknown(path) {
            findings.append(Finding(
                rule: "lifecycle.relevantDatePast", severity: .warning, location: context.at(path), before: context.subject.quote(path),
                after: "a future date, e.g. " + JSONTree.member(JSONTree.lastKey(path) ?? "date", .string(W3CDate(date: context.now.addingTimeInterval(86_400), secondsFromGMT: date.secondsFromGMT).description)),
                effect: "The pass comes up on the lock screen when it matters; a date already past never triggers it."))
        }
        if let expiration = pass.expirationDate, expiration.date < context.now, !context.subject.isUnknown("expirationDate") {
            findings.append(Finding(
                rule: "lifecycle.expired", severity: .warning, location: context.at("expirationDate"), before: context.subject.quote("expirationDate"),
                after: "a future date, e.g. " + JSONTree.member("expirationDate", .string(W3CDate(date: context.now.addingTimeInterval(365 * 86_400), secondsFromGMT: expiration.secondsFromGMT).description)),
                effect: "The holder adds a pass that works, instead of one Wallet shows as expired the moment it arrives."))
        }
        return findings
    }

    private static func changeMessages(_ context: LintContext) -> [Finding] {
        context.fields.compactMap { path, field in
            let messagePath = path + ".changeMessage"
            guard let message = field.changeMessage, message.count > changeMessageLength, message.contains("%@"),
                  !context.subject.isUnknown(messagePath) else { return nil }
            return Finding(
                rule: "lifecycle.changeMessageLength", severity: .warning, location: context.at(messagePath),
                before: context.subject.quote(messagePath),
                after: JSONTree.member("changeMessage", .string("\(field.label ?? field.key) is now %@")),
                effect: "The update notice fits on one lock-screen line, so the holder reads the new value without opening Wallet.")
        }
    }
}
