import Foundation
import PassModel
import PassPreview
import WalletStore

/// What a holder's page shows: the pass as its holder has it now, its words in the holder's
/// language, whether it can still be added, and its picture and archive.
///
/// Everything comes from the pass's signed archive (``PassService/archive(for:)``), so the page, its
/// picture and its download agree with what Wallet gets, and share that archive's cache.
public struct HolderPages: Sendable {
    let passes: PassService
    let previews: PreviewService

    /// Whether the pass can still be added.
    public enum State: Sendable, Equatable {
        case valid
        /// Voided by its issuer.
        case voided
        /// Past its `expirationDate`.
        case expired
    }

    /// A pass as its page shows it.
    public struct View: Sendable {
        public let key: PassKey
        public let template: String
        /// The pass's words in the holder's language.
        public let text: PassText
        /// The holder's language the pass has a translation for (`de-DE`), or `nil`: the locale the
        /// picture is drawn in, and the page's language where the page has its own words for it.
        public let language: String?
        public let state: State
        public let expirationDate: Date?
        /// Changes with every update: names the picture, so link previews fetch it again after one.
        public let updateTag: Int64
        /// The signed `.pkpass` the page offers.
        public let archive: Data
    }

    /// The page of the pass `key` for a holder whose languages are `languages` (most wanted first),
    /// or `nil` when there is no such pass.
    public func view(of key: PassKey, languages: [String]) async throws -> View? {
        guard let pass = try await passes.pass(key) else { return nil }
        let archive = try await passes.archive(for: pass)
        let contents = try PassContents(pkpass: archive, source: "pass \(key)")
        let language = PassText.language(of: contents, preferred: languages)
        let expiration = contents.pass.expirationDate?.date
        let state: State = pass.voided || contents.pass.voided == true ? .voided : expiration.map { $0 <= passes.now() } == true ? .expired : .valid
        return View(key: key, template: pass.template, text: try PassText(contents, locale: language), language: language,
                    state: state, expirationDate: expiration, updateTag: pass.updateTag, archive: archive)
    }

    /// The pass's front (or back) as a PNG at @2x in `language`, from the preview cache when drawn
    /// before; `nil` when there is no such pass.
    public func picture(of key: PassKey, side: PreviewOptions.Side, language: String?) async throws -> PreviewService.PassPicture? {
        guard let pass = try await passes.pass(key) else { return nil }
        return try await previews.picture(of: pass, options: PreviewOptions(side: side, scale: 2, format: .png, locale: language))
    }
}
