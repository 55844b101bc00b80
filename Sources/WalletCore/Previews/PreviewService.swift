import Foundation
import PassCompiler
import PassModel
import PassPreview
import WalletStore

/// Pictures of passes for the admin API: a stored pass as its holder has it now, and a template's
/// current version with any record.
///
/// A stored pass is drawn from its signed archive (``PassService/archive(for:)``), so the picture
/// shows exactly what `GET …/pkpass` gives — the pass's own template version, data, overrides and
/// voided state — and shares that archive's cache. Pictures are cached by ``PreviewCache``.
public struct PreviewService: Sendable {
    public let passes: PassService
    let templates: TemplateLibrary
    let cache: PreviewCache

    /// How many pictures are kept: enough for a console page of passes at a few option sets.
    static let defaultCapacity = 256
    /// How many bytes of pictures are kept (a PNG of one side at @2x is some 100 KB).
    static let defaultMaxBytes = 64 << 20

    init(passes: PassService, templates: TemplateLibrary, cache: PreviewCache = PreviewCache(capacity: defaultCapacity, maxBytes: defaultMaxBytes)) {
        self.passes = passes
        self.templates = templates
        self.cache = cache
    }

    /// A picture of a stored pass, and whether it came from the cache.
    public struct PassPicture: Sendable {
        public let data: Data
        /// Names everything the picture is drawn from (see ``PreviewCache/Key/entityTag``).
        public let entityTag: String
        public let cached: Bool
    }

    /// The picture's entity tag, known before drawing it: a matching `If-None-Match` costs nothing.
    public static func entityTag(of pass: StoredPass, options: PreviewOptions) -> String {
        PreviewCache.Key(pass: pass, options: options).entityTag
    }

    /// The pass drawn as the holder has it now, from the cache when it was drawn at this tag,
    /// template version and options before.
    public func picture(of pass: StoredPass, options: PreviewOptions) async throws -> PassPicture {
        let key = PreviewCache.Key(pass: pass, options: options)
        if let data = cache.picture(for: key) { return PassPicture(data: data, entityTag: key.entityTag, cached: true) }
        let archive = try await passes.archive(for: pass)
        let contents = try PassContents(pkpass: archive, source: "pass \(pass.key)")
        let data = try PassPreviewer.render(contents, options: options).data
        cache.store(data, for: key)
        return PassPicture(data: data, entityTag: key.entityTag, cached: false)
    }

    /// The current version of template `name` filled with `record` (its ``Template/sampleRecord``,
    /// each placeholder showing its own name, when `nil`), drawn without signing; `nil` when there is
    /// no such template. A record that does not render throws ``PreviewError/unreadable(source:problems:)``.
    public func picture(template name: String, record: JSONValue?, options: PreviewOptions) async throws -> RenderedPreview? {
        guard let (_, entry) = try await templates.current(name) else { return nil }
        guard let template = entry.compiler?.template else { throw ServiceError.unavailableTemplate(name) }
        let contents = try PassContents(
            template: template, record: record ?? template.sampleRecord, recordName: record == nil ? "the placeholders' names" : "record")
        return try PassPreviewer.render(contents, options: options)
    }
}
