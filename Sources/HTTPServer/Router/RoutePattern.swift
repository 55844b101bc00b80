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

    /// Matches raw (still percent-encoded) path segments; literals compare decoded, and without
    /// decoding when the segment has no `%` (nearly always, and decoding is the costly part).
    /// Returns each captured parameter's raw segments, or `nil` when the path does not fit.
    func match(_ rawSegments: [Substring]) -> [String: [Substring]]? {
        var captures: [String: [Substring]] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .tail:
                captures[Self.tailParameter] = Array(rawSegments[index...])
                return captures
            case .literal(let literal):
                guard index < rawSegments.count else { return nil }
                let raw = rawSegments[index]
                if raw.utf8.contains(UInt8(ascii: "%")) {
                    guard PercentDecoding.decode(raw) == literal else { return nil }
                } else {
                    guard raw == literal else { return nil }
                }
            case .parameter(let name):
                guard index < rawSegments.count else { return nil }
                captures[name] = [rawSegments[index]]
            }
        }
        return segments.count == rawSegments.count ? captures : nil
    }
}
