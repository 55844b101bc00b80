import Drawing
import Foundation

/// The images of one pass for one scale and language, decoded on first use.
///
/// Wallet takes the variant for the screen's scale and falls back to the others; a top-level image
/// overrides the copies in `.lproj` folders (Apple's "Localizing a pass").
final class PassImages {
    private let files: [String: Data]
    private let folder: String?
    private let scale: Int
    private var decoded: [String: Bitmap?] = [:]
    /// Images that are there but could not be decoded, with why: the preview draws without them and says so.
    private(set) var problems: [String] = []

    init(files: [String: Data], folder: String?, scale: Int) {
        self.files = files
        self.folder = folder
        self.scale = scale
    }

    /// The slot's image, or `nil` when the pass has none (or it is unreadable).
    subscript(slot: String) -> (bitmap: Bitmap, scale: Int)? {
        guard let (path, variantScale) = path(for: slot) else { return nil }
        if decoded[path] == nil {
            do {
                decoded[path] = try Bitmap(png: files[path]!, source: path)
            } catch {
                problems.append("\(error)")
                decoded[path] = .some(nil)
            }
        }
        guard let bitmap = decoded[path] ?? nil else { return nil }
        return (bitmap, variantScale)
    }

    /// Whether the pass ships the slot at all.
    func has(_ slot: String) -> Bool { path(for: slot) != nil }

    /// The image's size in points at the scale of the variant chosen.
    func pointSize(of slot: String) -> Size? {
        guard let (bitmap, variantScale) = self[slot] else { return nil }
        return Size(width: Double(bitmap.pixelWidth) / Double(variantScale), height: Double(bitmap.pixelHeight) / Double(variantScale))
    }

    private func path(for slot: String) -> (String, Int)? {
        let order = [scale] + [3, 2, 1].filter { $0 != scale }
        for prefix in [""] + (folder.map { ["\($0)/"] } ?? []) {
            for candidate in order {
                let path = prefix + slot + (candidate == 1 ? "" : "@\(candidate)x") + ".png"
                if files[path] != nil { return (path, candidate) }
            }
        }
        return nil
    }
}
