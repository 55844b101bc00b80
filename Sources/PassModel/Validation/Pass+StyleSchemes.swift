extension Pass {
    /// `preferredStyleSchemes` must match the style key, and each richer scheme has minimums below
    /// which Wallet silently falls back to the classic layout (Apple's Pass reference): errors, since the
    /// issuer asked for a design the holder will not get.
    func validateStyleSchemes(_ list: inout IssueList) {
        for (index, scheme) in preferredStyleSchemes.enumerated() {
            let needed: PassStyle = scheme == .posterEventTicket || scheme == .eventTicket ? .eventTicket : .boardingPass
            if self[needed] == nil {
                list.error("preferredStyleSchemes[\(index)]", "preferredStyleSchemes.style",
                           "\(scheme.rawValue) needs the \(needed.key) style key")
            }
        }
        if preferredStyleSchemes.contains(.posterEventTicket) { validatePosterEventTicket(&list) }
        if preferredStyleSchemes.contains(.semanticBoardingPass) { validateSemanticBoardingPass(&list) }
    }

    private func validatePosterEventTicket(_ list: inout IssueList) {
        let tags = semantics ?? SemanticTags()
        var required: [(String, Bool)] = [("eventName", tags.eventName != nil), ("venueName", tags.venueName != nil)]
        switch tags.eventType {
        case .sports?:
            required += [("homeTeamAbbreviation", tags.homeTeamAbbreviation != nil), ("awayTeamAbbreviation", tags.awayTeamAbbreviation != nil)]
        case .livePerformance?:
            required += [("performerNames", !(tags.performerNames ?? []).isEmpty)]
        default:
            break
        }
        for (key, present) in required where !present {
            list.error("semantics.\(key)", "posterEventTicket.semantics", "poster event tickets need semantics.\(key)")
        }
        if nfc == nil {
            list.error("nfc", "posterEventTicket.nfc", "poster event tickets need nfc (with requiresAuthentication)")
        } else if nfc?.requiresAuthentication != true {
            list.error("nfc.requiresAuthentication", "posterEventTicket.nfc", "poster event tickets need nfc.requiresAuthentication: true")
        }
    }

    private func validateSemanticBoardingPass(_ list: inout IssueList) {
        if let transit = boardingPass?.transitType, transit != .air {
            list.error("boardingPass.transitType", "semanticBoardingPass.transitType",
                       "only air boarding passes (PKTransitTypeAir) get the semantic design")
        }
        let tags = semantics ?? SemanticTags()
        let required: [(String, Bool)] = [
            ("airlineCode", tags.airlineCode != nil), ("flightNumber", tags.flightNumber != nil),
            ("originalDepartureDate", tags.originalDepartureDate != nil), ("originalBoardingDate", tags.originalBoardingDate != nil),
            ("originalArrivalDate", tags.originalArrivalDate != nil), ("departureAirportCode", tags.departureAirportCode != nil),
            ("departureLocationTimeZone", tags.departureTimeZone != nil), ("destinationAirportCode", tags.destinationAirportCode != nil),
            ("passengerName", tags.passengerName != nil),
        ]
        for (key, present) in required where !present {
            list.error("semantics.\(key)", "semanticBoardingPass.semantics", "semantic boarding passes need semantics.\(key)")
        }
        let recommended: [(String, Bool)] = [
            ("departureCityName", tags.departureCityName != nil), ("destinationCityName", tags.destinationCityName != nil),
            ("destinationLocationTimeZone", tags.destinationTimeZone != nil),
        ]
        for (key, present) in recommended where !present {
            list.warning("semantics.\(key)", "semanticBoardingPass.recommended", "semantic boarding passes should set semantics.\(key)")
        }
    }
}
