import Drawing
import Foundation
import OrderModel

/// The images an order names (merchant logo, line item images), looked up by package path and
/// decoded once for both of the painter's passes.
///
/// A path the package lacks, or bytes that are not a readable PNG, give `nil`: the painter draws a
/// placeholder, since a preview is most useful exactly while an order is still incomplete.
final class OrderImages {
    private let files: [String: Data]
    private var decoded: [String: Bitmap?] = [:]

    init(files: [String: Data]) {
        self.files = files
    }

    subscript(path: BundleFilePath?) -> Bitmap? {
        guard let path = path?.path, let bytes = files[path] else { return nil }
        if let known = decoded[path] { return known }
        let bitmap = try? Bitmap(png: bytes, source: path)
        decoded[path] = bitmap
        return bitmap
    }
}
