import Foundation
import HTTPServer
import WalletCore

/// The holder page's stylesheet, and the operator's Add to Apple Wallet badges: read once at start.
///
/// Apple's badge artwork may not be redrawn, only used as Apple publishes it: an operator who has
/// the badge files (one SVG per language, from Apple's Wallet marketing guidelines) puts them in a
/// folder (`--wallet-badges`), named by language (`en.svg`, `de.svg`). Without one for the page's
/// language (or English), the page shows a plain button instead.
struct HolderAssets: Sendable {
    let stylesheet: Data
    /// Badge SVGs by lowercased language (`en`).
    let badges: [String: Data]

    static func load(badgesDirectory: String?) throws -> HolderAssets {
        guard let url = Bundle.module.url(forResource: "holder.css", withExtension: nil, subdirectory: "Resources/holder") else {
            throw ServiceError.invalid("the holder page's holder.css is missing from the package resources")
        }
        var badges: [String: Data] = [:]
        if let badgesDirectory {
            let folder = URL(fileURLWithPath: badgesDirectory, isDirectory: true)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw ServiceError.invalid("cannot read the Wallet badge folder \(badgesDirectory): \(error.localizedDescription); give a folder of badge SVGs named by language (en.svg, de.svg)")
            }
            for name in names where name.lowercased().hasSuffix(".svg") {
                let language = String(name.dropLast(4)).lowercased()
                guard !language.isEmpty, language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else { continue }
                badges[language] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            guard !badges.isEmpty else {
                throw ServiceError.invalid("the Wallet badge folder \(badgesDirectory) holds no badge SVG named by language (en.svg, de.svg)")
            }
        }
        return HolderAssets(stylesheet: try Data(contentsOf: url), badges: badges)
    }

    /// The badge for `language`, else English's; `nil` when the operator supplied neither.
    func badge(for language: String) -> WalletBadge? {
        if badges[language] != nil { return WalletBadge(path: "/holder/badge-\(language).svg") }
        return badges["en"] != nil ? WalletBadge(path: "/holder/badge-en.svg") : nil
    }

    func response(for file: String) -> HTTPResponse {
        var response: HTTPResponse
        if file == "holder.css" {
            response = .bytes(stylesheet, contentType: "text/css; charset=utf-8")
        } else if file.hasPrefix("badge-"), file.hasSuffix(".svg"), let badge = badges[String(file.dropFirst(6).dropLast(4))] {
            response = .bytes(badge, contentType: "image/svg+xml")
        } else {
            return .problem(status: .notFound, detail: "no such file")
        }
        HolderPage.secure(&response)
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response
    }
}

/// An operator-supplied Add to Apple Wallet badge: where the page loads it from.
struct WalletBadge: Sendable, Equatable {
    let path: String
}
