import Foundation
import PassLint
import PassModel
import PassPreview

/// Values the front draws with an ellipsis (`glance.valueCutOff`), found by drawing the pass: the
/// width a value has depends on the font, the style's layout and the row it shares, which only a
/// layout knows. Lives beside ``LintPictures`` for the same reason (PassLint does not draw); run only
/// when the values are real — a template with `--record`, or a `.pkpass`.
enum CutOffValues {
    /// Measured at @1x on the front: the layout is in points, so the scale does not change what fits.
    static let measuring = PreviewOptions(side: .front, scale: 1)

    /// One finding per text field value drawn cut off, with the longest start of it that fits.
    /// Values another finding already shortens (`glance.primaryLength` at the same place) are left
    /// to it; numbers and dates (formatted by Wallet) are not shortened.
    static func findings(in contents: PassContents, record: String?, besides existing: [Finding]) throws -> [Finding] {
        let preview = try PassPreviewer.render(contents, options: measuring)
        let front = contents.pass.allFields.filter { !$0.path.contains(".backFields[") }
        let shortened = Set(existing.filter { $0.rule == "glance.primaryLength" }.map { unprefixed($0.location) })
        var findings: [Finding] = []
        var seen: Set<String> = []
        for placed in preview.texts where placed.side == .front && placed.isEllipsized {
            guard let key = fieldKey(ofValueRole: placed.role), !seen.contains(key),
                  let (path, field) = front.first(where: { $0.field.key == key }),
                  case .string(let text) = field.value, field.attributedValue == nil,
                  !shortened.contains("pass.json \(path).value") else { continue }
            seen.insert(key)
            let fitting = try longestFitting(text, key: key, role: placed.role, in: contents)
            findings.append(.valueCutOff(path: "\(path).value", record: record, field: field, fitting: fitting))
        }
        return findings
    }

    /// The field key of a value's role (`secondary.member.value` → `member`); `nil` for labels and
    /// for texts that are not one field's value (`logoText`, `primary.eventName`).
    static func fieldKey(ofValueRole role: String) -> String? {
        let parts = role.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.last == "value" else { return nil }
        return parts.dropFirst().dropLast().joined(separator: ".")
    }

    /// The location without a record's name in front (`record 1: pass.json x` → `pass.json x`).
    static func unprefixed(_ location: String) -> String {
        guard let range = location.range(of: "pass.json") else { return location }
        return String(location[range.lowerBound...])
    }

    /// The most whole words from the start of `text` that draw without an ellipsis, found by drawing
    /// candidates (a binary search: fewer words only ever fit better); `nil` when not even the first
    /// word fits.
    static func longestFitting(_ text: String, key: String, role: String, in contents: PassContents) throws -> String? {
        func fits(_ candidate: String) throws -> Bool {
            let pass = Finding.Fix.shorten(key: key, value: candidate).apply(to: contents.pass)
            let drawn = try PassPreviewer.render(PassContents(pass: pass, files: contents.files), options: measuring)
            return !(drawn.texts.first { $0.role == role }?.isEllipsized ?? false)
        }
        let words = text.split(separator: " ").map(String.init)
        return try largest(in: 1..<words.count, where: { try fits(words.prefix($0).joined(separator: " ")) })
            .map { words.prefix($0).joined(separator: " ") }
    }

    /// The largest `n` in `range` for which `test` holds, given it holds for every smaller `n` when
    /// it holds for `n`; `nil` when it holds for none.
    static func largest(in range: Range<Int>, where test: (Int) throws -> Bool) throws -> Int? {
        var low = range.lowerBound, high = range.upperBound - 1, best: Int?
        while low <= high {
            let middle = (low + high) / 2
            if try test(middle) {
                best = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }
}
