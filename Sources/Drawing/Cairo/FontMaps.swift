import Foundation
import Locking
internal import CPangoCairo

/// Pango font maps, one per canvas at a time.
///
/// A font map caches the fonts fontconfig found and their shaped glyphs, so it should live as long as
/// the process; but a `PangoCairoFontMap` must not be used by two threads at once. Canvases borrow one
/// from this pool for their lifetime and give it back, so parallel renders never share one and a
/// render on a warm map finds its fonts already loaded.
final class FontMaps: Sendable {
    static let shared = FontMaps()

    /// `@unchecked Sendable`: handed to one canvas at a time by the pool's lock.
    final class Map: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<PangoFontMap>
        init() { pointer = pango_cairo_font_map_new()! }
    }

    private let idle = Locked<[Map]>([])

    func borrow() -> Map { idle.withLock { $0.popLast() } ?? Map() }

    func giveBack(_ map: Map) { idle.withLock { $0.append(map) } }
}
