import OrderModel

extension Order {
    /// Every file `order.json` names, with the JSON path naming it: the merchant's logo, line item
    /// images (of the order, its fulfilments and its returns), the order provider's tracking logos,
    /// payment receipts and return labels. Each must be in the package (Apple's "Creating the
    /// source for an order": order images have no fixed names, the JSON is the only reference).
    public var referencedFiles: [(path: String, file: BundleFilePath)] {
        var files: [(path: String, file: BundleFilePath)] = []
        if let logo = merchant.logo { files.append(("merchant.logo", logo)) }
        if let provider = orderProvider {
            files.append(("orderProvider.trackingLogoNameLightColorScheme", provider.trackingLogoNameLightColorScheme))
            files.append(("orderProvider.trackingLogoNameDarkColorScheme", provider.trackingLogoNameDarkColorScheme))
        }
        func images(of items: [LineItem], at path: String) {
            for (index, item) in items.enumerated() {
                if let image = item.image { files.append(("\(path)[\(index)].image", image)) }
            }
        }
        images(of: lineItems, at: "lineItems")
        for (index, fulfillment) in fulfillments.enumerated() {
            images(of: fulfillment.lineItems, at: "fulfillments[\(index)].lineItems")
        }
        for (index, transaction) in (payment?.transactions ?? []).enumerated() {
            if let receipt = transaction.receipt { files.append(("payment.transactions[\(index)].receipt", receipt)) }
        }
        for (index, item) in returns.enumerated() {
            images(of: item.lineItems, at: "returns[\(index)].lineItems")
            if let label = item.returnLabel { files.append(("returns[\(index)].returnLabel", label)) }
        }
        return files
    }
}
