import Foundation
import PassModel

/// A file that goes into every pass of a template unchanged (an image, a `pass.strings`), hashed once
/// when the template loads so building a pass only hashes what varies.
public struct PackagedFile: Sendable, Hashable {
    /// Path inside the archive, `/`-separated: `icon@2x.png`, `de.lproj/pass.strings`.
    public let path: String
    /// The exact bytes archived and hashed.
    public let bytes: Data
    /// Lowercase hex SHA-1 of `bytes`, as the manifest lists it.
    public let sha1Hex: String

    /// The image slot of a PNG (`icon`, `strip`, …), `nil` for other files.
    public var imageName: ImageName? { ImageName(fileName: String(path.split(separator: "/").last ?? "")) }

    /// Personalization files ship only with NFC passes (Apple's "Adding personalization to a pass").
    public var isPersonalization: Bool {
        path == "personalization.json" || imageName?.slot == "personalizationLogo"
    }

    /// The `.lproj` folder's language (`de`, `zh-Hans`), `nil` for files at the root.
    public var language: String? {
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0].hasSuffix(".lproj") else { return nil }
        return String(parts[0].dropLast(6))
    }
}
