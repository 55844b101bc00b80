import PassModel

extension Order {
    /// Checks the rules Apple's Order documentation gives across keys, which a well-typed order can
    /// still break: errors for what Wallet rejects or cannot use, warnings for what it ignores.
    /// JSON types, enumerations, dates, URLs (https for `webServiceURL`) and file paths are already
    /// guaranteed by decoding.
    public func validate() -> [ValidationIssue] {
        var list = IssueList()
        validateIdentity(&list)
        validateWebService(&list)
        for (index, item) in lineItems.enumerated() { item.validate(at: "lineItems[\(index)]", into: &list) }
        validateFulfillments(&list)
        payment?.validate(at: "payment", into: &list)
        validateReturns(&list)
        merchant.address?.validate(at: "merchant.address", into: &list)
        customer?.validate(into: &list)
        for (index, application) in associatedApplications.enumerated() where application.storeIdentifier <= 0 {
            list.error("associatedApplications[\(index)].storeIdentifier", "application.storeIdentifier",
                       "storeIdentifier must be the app's App Store ID (a positive number), found \(application.storeIdentifier)")
        }
        return list.issues
    }

    private func validateIdentity(_ list: inout IssueList) {
        if schemaVersion != 1 {
            list.error("schemaVersion", "schemaVersion", "schemaVersion must be 1, found \(schemaVersion)")
        }
        for (key, value) in [("orderTypeIdentifier", orderTypeIdentifier), ("orderIdentifier", orderIdentifier),
                             ("merchant.displayName", merchant.displayName), ("merchant.merchantIdentifier", merchant.merchantIdentifier)]
        where value.isEmpty {
            list.error(key, "required", "\(key) must not be empty")
        }
        if updatedAt < createdAt {
            list.error("updatedAt", "updatedAt.order",
                       "updatedAt (\(updatedAt)) is before createdAt (\(createdAt)); it starts equal to createdAt and only increases")
        }
    }

    private func validateWebService(_ list: inout IssueList) {
        list.webServicePairing(url: webServiceURL?.text, token: authenticationToken)
        if let url = webServiceURL?.text, url.hasSuffix("/v1") || url.hasSuffix("/v1/") {
            list.error("webServiceURL", "webServiceURL.version", "remove the trailing /v1: the device appends /v1/... itself")
        }
    }

    private func validateFulfillments(_ list: inout IssueList) {
        Self.validateIdentifiers(fulfillments.map(\.fulfillmentIdentifier), in: "fulfillments", key: "fulfillmentIdentifier",
                                 rule: "fulfillment", into: &list)
        for (index, fulfillment) in fulfillments.enumerated() {
            let path = "fulfillments[\(index)]"
            for (itemIndex, item) in fulfillment.lineItems.enumerated() {
                item.validate(at: "\(path).lineItems[\(itemIndex)]", into: &list)
            }
            switch fulfillment {
            case .shipping(let shipping): shipping.validate(at: path, into: &list)
            case .pickup(let pickup): pickup.validate(at: path, into: &list)
            }
        }
    }

    private func validateReturns(_ list: inout IssueList) {
        if let returnInfo, returnInfo.displayCountdown == true, returnInfo.returnDeadline == nil {
            list.error("returnInfo.returnDeadline", "returnInfo.countdown", "displayCountdown counts down to returnDeadline, which is missing")
        }
        Self.validateIdentifiers(returns.map(\.returnIdentifier), in: "returns", key: "returnIdentifier", rule: "return", into: &list)
        for (index, entry) in returns.enumerated() {
            let path = "returns[\(index)]"
            if let label = entry.returnLabel, !["pdf", "jpg", "jpeg", "png"].contains(label.fileExtension) {
                list.error(path + ".returnLabel", "return.labelType", "a return label must be a PDF, JPEG or PNG file, found \"\(label)\"")
            }
            for (itemIndex, item) in entry.lineItems.enumerated() {
                item.validate(at: "\(path).lineItems[\(itemIndex)]", into: &list)
            }
        }
    }

    /// Identifiers Wallet tells entries apart by (to detect changes and notify): none empty, none repeated.
    private static func validateIdentifiers(_ identifiers: [String], in array: String, key: String, rule: String,
                                            into list: inout IssueList) {
        var seen: Set<String> = []
        for (index, identifier) in identifiers.enumerated() {
            let path = "\(array)[\(index)].\(key)"
            if identifier.isEmpty {
                list.error(path, "\(rule).identifier", "\(key) must not be empty")
            } else if !seen.insert(identifier).inserted {
                list.error(path, "\(rule).uniqueIdentifiers",
                           "\(key) \"\(identifier)\" is used by an earlier entry; Wallet tells them apart by it")
            }
        }
    }
}
