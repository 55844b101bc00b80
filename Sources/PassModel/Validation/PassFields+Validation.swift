extension PassFields {
    /// How many fields of each group a style shows (Apple's "Pass Design and Creation", field layouts); `nil` is unlimited, 0 never shown.
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
        var seen: [String: String] = [:]
        for group in Group.allCases {
            for (index, field) in self[group].enumerated() {
                let path = "\(styleKey).\(group.rawValue)[\(index)]"
                if let first = seen[field.key] {
                    list.error(path + ".key", "fields.uniqueKeys", "field key \"\(field.key)\" is already used at \(first)")
                } else {
                    seen[field.key] = path
                }
                field.validate(at: path, group: group, styleKey: styleKey, into: &list)
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

extension Field {
    /// Checks the per-field rules of §2.9 and §5 row 14.
    func validate(at path: String, group: PassFields.Group, styleKey: String, into list: inout IssueList) {
        if let changeMessage, !changeMessage.contains("%@") {
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
        for (key, style) in [("dateStyle", dateStyle), ("timeStyle", timeStyle)] where style != nil && !isDate {
            list.error("\(path).\(key)", "field.dateStyle", "\(key) needs a W3C date value; the value is not a date")
        }
    }
}
