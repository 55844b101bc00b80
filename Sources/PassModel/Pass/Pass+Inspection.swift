extension Pass {
    /// Every field of every style dictionary with its JSON path (`storeCard.primaryFields[0]`), for
    /// tools that check fields without caring which group holds them.
    public var allFields: [(path: String, field: Field)] {
        var result: [(path: String, field: Field)] = []
        for (key, fields) in styleDictionaries {
            for group in PassFields.Group.allCases {
                for (index, field) in fields[group].enumerated() {
                    result.append((path: "\(key).\(group.rawValue)[\(index)]", field: field))
                }
            }
        }
        return result
    }

    /// The strings a person reads on the pass, with their JSON paths: the ones `pass.strings` can
    /// localize and the linter checks for length and duplication. Date and number values are
    /// excluded (Wallet formats those per locale).
    public var displayedStrings: [(path: String, text: String)] {
        var result: [(path: String, text: String)] = [
            (path: "organizationName", text: organizationName),
            (path: "description", text: description),
        ]
        if let logoText { result.append((path: "logoText", text: logoText)) }
        if let eventLogoText { result.append((path: "eventLogoText", text: eventLogoText)) }
        for (path, field) in allFields {
            if let label = field.label { result.append((path: path + ".label", text: label)) }
            if case .string(let text) = field.value { result.append((path: path + ".value", text: text)) }
            if case .string(let text)? = field.attributedValue { result.append((path: path + ".attributedValue", text: text)) }
            if let message = field.changeMessage { result.append((path: path + ".changeMessage", text: message)) }
        }
        for (index, location) in locations.enumerated() {
            if let text = location.relevantText { result.append((path: "locations[\(index)].relevantText", text: text)) }
        }
        for (index, beacon) in beacons.enumerated() {
            if let text = beacon.relevantText { result.append((path: "beacons[\(index)].relevantText", text: text)) }
        }
        if let text = barcode?.altText { result.append((path: "barcode.altText", text: text)) }
        for (index, barcode) in barcodes.enumerated() {
            if let text = barcode.altText { result.append((path: "barcodes[\(index)].altText", text: text)) }
        }
        for (index, entry) in upcomingPassInformation.enumerated() {
            if let name = entry.name { result.append((path: "upcomingPassInformation[\(index)].name", text: name)) }
        }
        return result
    }
}
