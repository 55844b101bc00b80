import Foundation
import OrderPackage
import Signing

extension IdentityOptions {
    /// A packager signing with `orderTypeIdentifier`'s Order Type ID identity (the folder named after
    /// it) and the WWDR intermediate that issued it, as passes are signed with theirs. Orders have no
    /// linter yet: the packager's validation is their whole review.
    func orderPackager(for orderTypeIdentifier: String, now: Date = Date()) throws -> OrderPackager {
        let identity = try directory.identity(forOrderTypeIdentifier: orderTypeIdentifier)
        let intermediate = try WWDRSelection.intermediate(for: identity.certificate, among: directory.intermediates(), at: now)
        return try OrderPackager(identity: identity, intermediate: intermediate)
    }
}
