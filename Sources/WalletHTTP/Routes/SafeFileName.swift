import WalletCore
/// The characters the service lets into a file name it hands out (`Content-Disposition`) or a
/// template name that becomes one: ASCII letters, digits, `-`, `_` and `.`.
enum SafeFileName {
    static func allows(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }

    /// `text` with every other character replaced by `_`.
    static func from(_ text: String) -> String {
        String(text.unicodeScalars.map { allows($0) ? Character($0) : "_" })
    }
}
