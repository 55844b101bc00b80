import PassModel

// The rules of the objects an order holds, each checked where it sits (`path` is already rendered).

extension LineItem {
    func validate(at path: String, into list: inout IssueList) {
        if title.isEmpty { list.error(path + ".title", "lineItem.title", "title must not be empty") }
        if quantity < 0 { list.error(path + ".quantity", "lineItem.quantity", "quantity cannot be negative, found \(quantity)") }
    }
}

extension ShippingFulfillment {
    func validate(at path: String, into list: inout IssueList) {
        if estimatedDeliveryWindowDuration != nil, estimatedDeliveryAt == nil {
            list.error(path + ".estimatedDeliveryAt", "shipping.deliveryWindow",
                       "estimatedDeliveryWindowDuration is the length of a window that starts at estimatedDeliveryAt, which is missing")
        }
        if let shippedAt, let deliveredAt, deliveredAt < shippedAt {
            list.error(path + ".deliveredAt", "shipping.dates", "deliveredAt (\(deliveredAt)) is before shippedAt (\(shippedAt))")
        }
        if status == .delivered, deliveredAt == nil {
            list.warning(path + ".deliveredAt", "shipping.deliveredAt", "status is delivered: add deliveredAt so Wallet can show when")
        }
        recipient?.address?.validate(at: path + ".recipient.address", into: &list)
    }
}

extension PickupFulfillment {
    func validate(at path: String, into list: inout IssueList) {
        if displayName.isEmpty { list.error(path + ".displayName", "pickup.displayName", "a pick-up needs the displayName of its place") }
        if pickupWindowDuration != nil, pickupAt == nil {
            list.error(path + ".pickupAt", "pickup.window",
                       "pickupWindowDuration is the length of a window that starts at pickupAt, which is missing")
        }
        if status == .pickedUp, pickedUpAt == nil {
            list.warning(path + ".pickedUpAt", "pickup.pickedUpAt", "status is pickedUp: add pickedUpAt so Wallet can show when")
        }
        if let location {
            if !(-90...90).contains(location.latitude) {
                list.error(path + ".location.latitude", "location.latitude", "latitude must be within -90...90, found \(location.latitude)")
            }
            if !(-180...180).contains(location.longitude) {
                list.error(path + ".location.longitude", "location.longitude", "longitude must be within -180...180, found \(location.longitude)")
            }
        }
        address?.validate(at: path + ".address", into: &list)
    }
}

extension Payment {
    func validate(at path: String, into list: inout IssueList) {
        // Wallet shows one currency per order; a breakdown in another currency cannot add up to the total.
        let amounts = summaryItems.enumerated().map { ("\(path).summaryItems[\($0.offset)].value", $0.element.value) }
            + transactions.enumerated().map { ("\(path).transactions[\($0.offset)].amount", $0.element.amount) }
        for (amountPath, amount) in amounts where amount.currency != total.currency {
            list.warning(amountPath + ".currency", "payment.currency",
                         "currency \(amount.currency) differs from the total's \(total.currency)")
        }
    }
}

extension Address {
    func validate(at path: String, into list: inout IssueList) {
        if let countryCode, countryCode.utf8.count != 2 || !countryCode.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            list.error(path + ".countryCode", "address.countryCode",
                       "countryCode must be an ISO 3166-1 alpha-2 code of two uppercase letters like US, found \"\(countryCode)\"")
        }
    }
}

extension Customer {
    func validate(into list: inout IssueList) {
        if let emailAddress, !emailAddress.contains("@") {
            list.warning("customer.emailAddress", "customer.emailAddress", "\"\(emailAddress)\" does not look like an e-mail address")
        }
    }
}
