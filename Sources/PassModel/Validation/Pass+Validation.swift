import Foundation

extension Pass {
    /// Checks the rules Wallet enforces on `pass.json` (Apple's Pass reference and "Building a Pass"): errors
    /// for what Wallet rejects or silently downgrades, warnings for what it ignores or hides.
    /// JSON types and date/colour syntax are already guaranteed by the typed model (decoding
    /// reports those); image requirements are the compiler's, since pass.json cannot show them.
    public func validate() -> [ValidationIssue] {
        var list = IssueList()
        validateIdentity(&list)
        validateStyles(&list)
        validateWebService(&list)
        validateRelevance(&list)
        validateBarcodesAndNFC(&list)
        validateApps(&list)
        validateStyleSchemes(&list)
        validateNewerKeys(&list)
        return list.issues
    }

    private func validateIdentity(_ list: inout IssueList) {
        if formatVersion != 1 {
            list.error("formatVersion", "formatVersion", "formatVersion must be 1, found \(formatVersion)")
        }
        if !passTypeIdentifier.hasPrefix("pass.") || passTypeIdentifier.count <= 5 {
            list.error("passTypeIdentifier", "passTypeIdentifier",
                       "must be a reverse-DNS identifier starting with \"pass.\" (e.g. pass.com.example.loyalty), found \"\(passTypeIdentifier)\"")
        }
        let teamCharacters = teamIdentifier.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        if teamIdentifier.unicodeScalars.count != 10 || !teamCharacters {
            list.error("teamIdentifier", "teamIdentifier",
                       "must be the 10-character Team ID (uppercase letters and digits), found \"\(teamIdentifier)\"")
        }
        for (key, value) in [("serialNumber", serialNumber), ("organizationName", organizationName), ("description", description)]
        where value.isEmpty {
            list.error(key, "required", "\(key) must not be empty")
        }
    }

    private func validateStyles(_ list: inout IssueList) {
        let present = presentStyles
        if present.count != 1 {
            let found = present.isEmpty ? "none" : present.map(\.key).joined(separator: ", ")
            list.error(present.count > 1 ? present[1].key : "", "style.exactlyOne",
                       "a pass needs exactly one of boardingPass, coupon, eventTicket, generic, storeCard; found \(found)")
        }
        if posterGeneric != nil, !present.contains(where: { [.generic, .storeCard, .coupon, .eventTicket].contains($0) }) {
            list.error("posterGeneric", "posterGeneric.fallback",
                       "posterGeneric needs a generic, storeCard, coupon or eventTicket key next to it for systems before iOS 27")
        }
        for (key, fields) in styleDictionaries {
            if key == PassStyle.boardingPass.key {
                if fields.transitType == nil {
                    list.error("boardingPass.transitType", "transitType", "boardingPass requires transitType (e.g. PKTransitTypeAir)")
                }
            } else if fields.transitType != nil {
                list.error("\(key).transitType", "transitType", "transitType is only valid on boardingPass")
            }
            fields.validate(styleKey: key, squareBarcode: barcodes.first.map { [.qr, .aztec].contains($0.format) } ?? false, into: &list)
        }
        if groupingIdentifier != nil, let style, style != .boardingPass, style != .eventTicket {
            list.error("groupingIdentifier", "groupingIdentifier", "groupingIdentifier only applies to boardingPass and eventTicket passes")
        }
    }

    private func validateWebService(_ list: inout IssueList) {
        list.webServicePairing(url: webServiceURL, token: authenticationToken)
        guard let webServiceURL else { return }
        let components = URLComponents(string: webServiceURL)
        switch components?.scheme?.lowercased() {
        case "https" where components?.host?.isEmpty == false:
            break
        case "http" where components?.host?.isEmpty == false:
            list.warning("webServiceURL", "webServiceURL.scheme",
                         "http works only on devices with the developer setting enabled; use https")
        default:
            list.error("webServiceURL", "webServiceURL.scheme", "webServiceURL must be an https URL, found \"\(webServiceURL)\"")
        }
        if webServiceURL.hasSuffix("/v1") || webServiceURL.hasSuffix("/v1/") {
            list.error("webServiceURL", "webServiceURL.version",
                       "remove the trailing /v1: the device appends /v1/... itself")
        }
    }

    private func validateRelevance(_ list: inout IssueList) {
        if locations.count > 10 {
            list.error("locations", "locations.count", "at most 10 locations are allowed, found \(locations.count)")
        }
        for (index, location) in locations.enumerated() {
            let path = "locations[\(index)]"
            if !(-90...90).contains(location.latitude) {
                list.error(path + ".latitude", "location.latitude", "latitude must be within -90...90, found \(location.latitude)")
            }
            if !(-180...180).contains(location.longitude) {
                list.error(path + ".longitude", "location.longitude", "longitude must be within -180...180, found \(location.longitude)")
            }
        }
        if let maxDistance, !(maxDistance >= 0) {
            list.error("maxDistance", "maxDistance", "maxDistance is a distance in metres and cannot be negative, found \(maxDistance)")
        }
        for (index, beacon) in beacons.enumerated() {
            let path = "beacons[\(index)]"
            if UUID(uuidString: beacon.proximityUUID) == nil {
                list.error(path + ".proximityUUID", "beacon.proximityUUID", "proximityUUID must be a UUID, found \"\(beacon.proximityUUID)\"")
            }
            for (key, value) in [("major", beacon.major), ("minor", beacon.minor)] {
                if let value, !(0...65_535).contains(value) {
                    list.error("\(path).\(key)", "beacon.\(key)", "\(key) must be within 0...65535, found \(value)")
                }
            }
        }
        for (index, entry) in relevantDates.enumerated() {
            let path = "relevantDates[\(index)]"
            switch (entry.startDate, entry.endDate, entry.date) {
            case let (start?, end?, _):
                if end < start { list.error(path + ".endDate", "relevantDates.interval", "endDate is before startDate") }
            case (_?, nil, _):
                list.error(path + ".endDate", "relevantDates.interval", "startDate requires endDate")
            case (nil, _?, _):
                list.error(path + ".startDate", "relevantDates.interval", "endDate requires startDate")
            case (nil, nil, nil):
                list.error(path, "relevantDates.interval", "an entry needs startDate and endDate, or date")
            case (nil, nil, _?):
                break
            }
        }
    }

    private func validateBarcodesAndNFC(_ list: inout IssueList) {
        var all = barcodes.enumerated().map { (path: "barcodes[\($0.offset)]", barcode: $0.element) }
        if let barcode {
            all.append((path: "barcode", barcode: barcode))
            if ![.qr, .pdf417, .aztec].contains(barcode.format) {
                list.error("barcode.format", "barcode.legacyFormat",
                           "the deprecated barcode key only allows QR, PDF417 and Aztec, found \(barcode.format.rawValue); use barcodes")
            }
        }
        for (path, barcode) in all where barcode.messageEncoding?.isEmpty ?? true {
            list.error(path + ".messageEncoding", "barcode.messageEncoding", "messageEncoding is required (usually iso-8859-1)")
        }
        guard let nfc else { return }
        let length = nfc.message.utf8.count
        if length > 64 {
            list.error("nfc.message", "nfc.messageLength", "the NFC message is \(length) bytes; at most 64 are sent")
        }
        if nfc.encryptionPublicKey.isEmpty || Data(base64Encoded: nfc.encryptionPublicKey) == nil {
            list.error("nfc.encryptionPublicKey", "nfc.encryptionPublicKey",
                       "encryptionPublicKey must be the base64 body of a P-256 public key (no PEM header lines)")
        }
    }

    private func validateApps(_ list: inout IssueList) {
        if appLaunchURL != nil, associatedStoreIdentifiers.isEmpty {
            // Apple: appLaunchURL is passed to the app named in associatedStoreIdentifiers. With none
            // there is no app to launch: Wallet ignores the key and installs the pass, so models made
            // with other pass libraries that carry it must still build.
            list.warning("appLaunchURL", "appLaunchURL.storeIdentifiers",
                         "add the app's Apple ID to associatedStoreIdentifiers, or remove appLaunchURL: without an app Wallet ignores it")
        }
    }

    private func validateNewerKeys(_ list: inout IssueList) {
        if featuredActions.count > 2 {
            list.error("featuredActions", "featuredActions.count", "at most 2 featured actions are shown, found \(featuredActions.count)")
        }
        var identifiers: Set<String> = []
        for (index, entry) in upcomingPassInformation.enumerated() {
            let path = "upcomingPassInformation[\(index)]"
            for (key, value) in [("type", entry.type), ("identifier", entry.identifier), ("name", entry.name)]
            where value?.isEmpty ?? true {
                list.error("\(path).\(key)", "upcomingPassInformation.required", "an upcoming event needs \(key)")
            }
            if let identifier = entry.identifier, !identifiers.insert(identifier).inserted {
                list.error(path + ".identifier", "upcomingPassInformation.uniqueIdentifiers",
                           "identifier \"\(identifier)\" is used by an earlier entry")
            }
        }
    }
}
