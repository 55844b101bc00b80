import Foundation
import WalletPackage

/// What `build` was given: a pass template or an order folder, told apart by the JSON document at
/// the folder's root, so one command builds both and neither needs a flag.
enum BuildSource: Sendable, Equatable {
    /// A pass template (`pass.json` with placeholders), filled from a record.
    case passTemplate
    /// An order's source (Apple's "Creating the source for an order"): `order.json` and its images.
    case orderFolder

    /// An order folder has `order.json` and no `pass.json` at its root; anything else is taken as a
    /// template, whose loading then says what is missing.
    static func of(_ folder: URL) -> BuildSource {
        func has(_ kind: WalletDocumentKind) -> Bool {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(kind.payloadFile).path)
        }
        return has(.order) && !has(.pass) ? .orderFolder : .passTemplate
    }
}
