import Foundation

/// A route path such as `/wallet/v1/passes/:passTypeIdentifier/:serialNumber` or `/static/*`, parsed once.
///
/// Empty segments are ignored on both sides, so `//a/b/` matches `/a/b`: Wallet builds URLs by appending to
/// a `webServiceURL` that may or may not end in `/`.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// `*`: the rest of the path (zero or more segments), captured as the parameter `*`.
        case tail
    }

    /// The name under which a `*` tail is captured.
    static let tailParameter = "*"

    let segments: [Segment]
    let description: String

    init(_ pattern: String) {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: true)
        segments = parts.enumerated().map { index, part in
            if part == "*" {
                precondition(index == parts.count - 1, "`*` must be the last segment of route \(pattern)")
                return .tail
            }
            if part.hasPrefix(":") {
                precondition(part.count > 1, "a parameter needs a name in route \(pattern)")
                return .parameter(String(part.dropFirst()))
            }
            return .literal(String(part))
        }
        description = pattern
    }

    /// The parameter names in order, `*` for a tail.
    var parameterNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .literal: nil
            case .parameter(let name): name
            case .tail: Self.tailParameter
            }
        }
    }

    /// Whether raw (still percent-encoded) path segments fit: the segment count first, then each literal,
    /// compared decoded, and without decoding when the segment has no `%` (nearly always, and decoding
    /// is the costly part). Nothing is allocated, since most routes tried for a request do not fit.
    func fits(_ rawSegments: [Substring]) -> Bool {
        guard segments.last == .tail ? rawSegments.count >= segments.count - 1 : rawSegments.count == segments.count else {
            return false
        }
        for (index, segment) in segments.enumerated() {
            guard case .literal(let literal) = segment else { continue }
            let raw = rawSegments[index]
            if raw.utf8.contains(UInt8(ascii: "%")) {
                guard PercentDecoding.decode(raw) == literal else { return false }
            } else {
                guard raw == literal else { return false }
            }
        }
        return true
    }

    /// Each parameter's raw segments, in the pattern's order, from segments that ``fits(_:)``.
    func captures(_ rawSegments: [Substring]) -> [(name: String, raw: ArraySlice<Substring>)] {
        segments.indices.compactMap { index in
            switch segments[index] {
            case .literal: nil
            case .parameter(let name): (name, rawSegments[index...index])
            case .tail: (Self.tailParameter, rawSegments[index...])
            }
        }
    }
}
