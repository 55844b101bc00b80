import Foundation
import PassModel

/// The words of a pass as its holder reads them in one language: every field's label and value
/// translated and formatted as Wallet shows them, front and back.
///
/// A page that shows a picture of the pass gives screen readers (and search, and copy and paste)
/// the same text as real text, from the same translation and formatting the picture was drawn with.
public struct PassText: Sendable, Equatable {
    /// One field as shown: its translated label (empty when it has none) and formatted value.
    public struct Entry: Sendable, Equatable {
        public let label: String
        public let value: String
    }

    /// The `.lproj` folder the texts come from (`de.lproj`), or `nil` for `pass.json` as written.
    public let folder: String?
    public let organizationName: String
    public let description: String
    public let logoText: String?
    /// The front's fields in reading order: header, primary, secondary, auxiliary.
    public let front: [Entry]
    /// The back's fields in order.
    public let back: [Entry]
    private let table: [String: String]

    /// The texts of `contents` for a holder reading `locale` (`de-DE`), dates in `timeZone`.
    public init(_ contents: PassContents, locale: String?, timeZone: TimeZone? = nil) throws(PreviewError) {
        let strings = try PassStrings(files: contents.files, locale: locale)
        let formatter = FieldFormatter(locale: locale, timeZone: timeZone)
        let pass = contents.pass
        let groups = pass.style.flatMap { pass[$0] }
        func entries(_ fields: [Field]) -> [Entry] {
            fields.map { Entry(label: strings($0.label) ?? "", value: formatter.text(of: $0, strings: strings)) }
        }
        folder = strings.folder
        organizationName = strings(pass.organizationName)
        description = strings(pass.description)
        logoText = strings(pass.logoText)
        front = entries((groups?.headerFields ?? []) + (groups?.primaryFields ?? []) + (groups?.secondaryFields ?? []) + (groups?.auxiliaryFields ?? []))
        back = entries(groups?.backFields ?? [])
        table = strings.table
    }

    /// The translation of `key` in the chosen folder's `pass.strings`, or `nil` when it has none:
    /// how a template words things for its holders beyond the pass itself.
    public func translation(of key: String) -> String? { table[key] }

    /// The language of the `.lproj` Wallet would pick for a holder whose languages are `preferred`
    /// (most wanted first, `de-DE`): the first one the pass has a folder for, by its full tag and
    /// then its language; `nil` when it has none of them (Wallet then shows its development language).
    public static func language(of contents: PassContents, preferred: [String]) -> String? {
        let folders = PassStrings.folders(in: contents.files)
        for tag in preferred where PassStrings.choose(from: folders, locale: tag, fallback: nil) != nil { return tag }
        return nil
    }
}
