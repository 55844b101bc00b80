extension PassFields {
    /// How many fields of each group a style shows (Apple's PassFieldContent and the Human Interface Guidelines); `nil` is unlimited, 0 never shown.
    private struct Limits {
        var header: Int? = 3, primary: Int? = 1, secondary: Int? = 4, auxiliary: Int? = 4
        var footer: Int? = 0
        /// Coupons, store cards and square-barcode generic passes share one row for both groups.
        var secondaryPlusAuxiliary: Int?

        static func forStyle(_ key: String, squareBarcode: Bool) -> Limits {
            switch key {
            case "boardingPass": return Limits(primary: 2, auxiliary: 5)
            case "coupon", "storeCard": return Limits(secondaryPlusAuxiliary: 4)
            case "generic": return squareBarcode ? Limits(secondaryPlusAuxiliary: 4) : Limits()
            case "posterGeneric": return Limits(header: 1, primary: 4, secondary: 0, auxiliary: 0, footer: 2)
            default: return Limits()
            }
        }
    }

    /// Checks one style dictionary: key uniqueness, per-group keys, counts and formatting conflicts.
    func validate(styleKey: String, squareBarcode: Bool, into list: inout IssueList) {
        var seen: [String: FieldLocation] = [:]
        for group in Group.allCases {
            for (index, field) in self[group].enumerated() {
                let location = FieldLocation(styleKey: styleKey, group: group, index: index)
                if let first = seen[field.key] {
                    list.error(location.path + ".key", "fields.uniqueKeys", "field key \"\(field.key)\" is already used at \(first.path)")
                } else {
                    seen[field.key] = location
                }
                field.validate(at: location, into: &list)
            }
        }
        validateCounts(Limits.forStyle(styleKey, squareBarcode: squareBarcode), styleKey: styleKey, into: &list)
    }

    private func validateCounts(_ limits: Limits, styleKey: String, into list: inout IssueList) {
        let checks: [(Group, Int?)] = [
            (.headerFields, limits.header), (.primaryFields, limits.primary), (.secondaryFields, limits.secondary),
            (.auxiliaryFields, limits.auxiliary), (.footerFields, limits.footer),
        ]
        for (group, limit) in checks {
            var count = self[group].count
            if styleKey == "eventTicket", group == .auxiliaryFields {
                // A second row of up to 4 comes from row: 1; count the fuller row.
                let secondRow = auxiliaryFields.filter { $0.row == 1 }.count
                count = max(secondRow, count - secondRow)
            }
            if let limit, count > limit {
                let shown = limit == 0 ? "are not shown on \(styleKey)" : "beyond \(limit) are not shown on \(styleKey)"
                list.warning("\(styleKey).\(group.rawValue)", "fields.count", "\(count) \(group.rawValue) given; fields \(shown)")
            }
        }
        if let combined = limits.secondaryPlusAuxiliary, secondaryFields.count + auxiliaryFields.count > combined {
            list.warning("\(styleKey).auxiliaryFields", "fields.count",
                         "secondary and auxiliary fields share one row of \(combined) on \(styleKey); \(secondaryFields.count + auxiliaryFields.count) given")
        }
    }
}

/// Where a field sits, spelled out as a JSON path only when an issue names it: every field of every
/// pass of a batch is checked, and nearly all pass.
struct FieldLocation {
    let styleKey: String
    let group: PassFields.Group
    let index: Int

    var path: String { "\(styleKey).\(group.rawValue)[\(index)]" }
}

extension Field {
    /// Checks the per-field rules of Apple's PassFieldContent reference.
    func validate(at location: FieldLocation, into list: inout IssueList) {
        let group = location.group, styleKey = location.styleKey
        var path: String { location.path }
        if let changeMessage, !Self.hasPlaceholder(changeMessage) {
            list.error(path + ".changeMessage", "field.changeMessage",
                       "changeMessage must contain %@ (replaced by the new value), e.g. \"Gate changed to %@\"")
        }
        if textAlignment != nil, group == .primaryFields || group == .backFields {
            list.error(path + ".textAlignment", "field.textAlignment", "textAlignment is not allowed on \(group.rawValue)")
        }
        if dataDetectorTypes != nil, group != .backFields {
            list.error(path + ".dataDetectorTypes", "field.dataDetectorTypes", "dataDetectorTypes only applies to backFields")
        }
        if let row {
            if styleKey != "eventTicket" || group != .auxiliaryFields {
                list.error(path + ".row", "field.row", "row only applies to eventTicket auxiliaryFields")
            } else if row != 0 && row != 1 {
                list.error(path + ".row", "field.row", "row must be 0 or 1, found \(row)")
            }
        }
        let isNumber: Bool, isDate: Bool
        switch value {
        case .number: (isNumber, isDate) = (true, false)
        case .date: (isNumber, isDate) = (false, true)
        case .string: (isNumber, isDate) = (false, false)
        }
        if let currencyCode {
            if !isNumber {
                list.error(path + ".currencyCode", "field.currencyCode", "currencyCode needs a number value; the value is not a number")
            } else if currencyCode.count != 3 || !currencyCode.allSatisfy({ $0.isASCII && $0.isUppercase }) {
                list.error(path + ".currencyCode", "field.currencyCode", "currencyCode must be an ISO 4217 code like USD, found \"\(currencyCode)\"")
            }
            if numberStyle != nil {
                list.warning(path + ".numberStyle", "field.numberStyle", "numberStyle is ignored when currencyCode is set")
            }
        }
        if numberStyle != nil, !isNumber {
            list.error(path + ".numberStyle", "field.numberStyle", "numberStyle needs a number value; the value is not a number")
        }
        if !isDate, dateStyle != nil || timeStyle != nil {
            for (key, style) in [("dateStyle", dateStyle), ("timeStyle", timeStyle)] where style != nil {
                list.error("\(path).\(key)", "field.dateStyle", "\(key) needs a W3C date value; the value is not a date")
            }
        }
    }

    /// Whether `changeMessage` holds `%@`, looked for on the bytes: Foundation's `contains` bridges
    /// through `NSString`, and the standard library's generic search was 1 % of a batch pass.
    private static func hasPlaceholder(_ text: String) -> Bool {
        var afterPercent = false
        for byte in text.utf8 {
            if afterPercent, byte == UInt8(ascii: "@") { return true }
            afterPercent = byte == UInt8(ascii: "%")
        }
        return false
    }
}
