import Foundation
import WalletPackage
import ZipArchive

extension WalletDocumentKind {
    /// The kind of a signed archive for `verify`: by its payload (`order.json` without `pass.json` is
    /// an order), which cannot be renamed away; by `path`'s extension when the archive is not a zip
    /// that can be read, so the verifier of the kind the user meant names what is wrong with it.
    static func of(archive: Data, path: String) -> WalletDocumentKind {
        if let reader = try? ZipReader(data: archive) {
            return reader.contains(WalletDocumentKind.order.payloadFile) && !reader.contains(WalletDocumentKind.pass.payloadFile) ? .order : .pass
        }
        return URL(fileURLWithPath: path).pathExtension.lowercased() == WalletDocumentKind.order.fileExtension ? .order : .pass
    }
}
