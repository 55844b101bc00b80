import PassModel
import WalletStore

/// A pass's record, overrides, voided flag and template version: what edits change, as values, so
/// two states compare by content (the record canonical) whatever order their members came in.
struct PassState: Sendable, Equatable {
    var data: JSONValue
    var overrides: JSONObject
    var voided: Bool
    var templateVersion: Int64

    /// The state `pass` is stored with.
    init(_ pass: StoredPass) throws {
        data = try PassService.value(pass.data)
        overrides = try PassService.object(pass.overrides)
        voided = pass.voided
        templateVersion = pass.templateVersion
    }

    /// This state with `edit` applied: a merge patch for the record, `null` removes an override, a
    /// template version only ever moves forward.
    func merging(_ edit: PassEdit) -> PassState {
        var merged = self
        if let data = edit.data { merged.data = JSONMergePatch.apply(data, to: self.data) }
        for (key, value) in edit.overrides { merged.overrides[key] = value == .null ? nil : value }
        if let voided = edit.voided { merged.voided = voided }
        if let version = edit.templateVersion { merged.templateVersion = max(templateVersion, version) }
        return merged
    }

    /// The state as the store writes it, canonical, so an unchanged state compares equal.
    var stored: PassChange {
        PassChange(data: PassService.text(data), overrides: PassService.text(.object(overrides)), voided: voided, templateVersion: templateVersion)
    }
}
