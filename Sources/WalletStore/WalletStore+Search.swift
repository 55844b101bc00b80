import Foundation
import PassModel
import Storage

/// Finding passes across pass types and templates, for the web console: by serial number prefix,
/// by a value in the record, by template, a page at a time in (serial number, pass type) order.
extension WalletStore {
    /// One page of the passes `search` matches, after `search.after`, in (serial number, pass type
    /// identifier) order, compared as bytes on both engines.
    ///
    /// With `text`, a pass matches when its serial number starts with it or its record (data JSON
    /// text) contains it; the two are asked separately, each for one pass more than a page, and
    /// merged, which gives exactly the union's page. Their costs differ:
    /// - the serial prefix is a range seek on `passes_serial` (or `passes_template_serial` with a
    ///   template), `serial_number >= prefix AND serial_number < successor(prefix)`: no `LIKE`, so
    ///   nothing to escape, and it costs the page, however many passes there are;
    /// - the record substring cannot use an index: it scans the passes in page order (within the
    ///   template with one) and stops at `LIMIT`, so it costs the page when matches are common and up
    ///   to every pass (of the template) when they are rare or absent.
    /// Without `text`, a page is one keyset seek on the same indexes.
    public func searchPasses(_ search: PassSearch) async throws -> PassSearchPage {
        let text = search.text.flatMap { $0.isEmpty ? nil : $0 }
        // No serial number or stored record contains NUL (PostgreSQL text cannot), so nothing matches.
        if let text, text.unicodeScalars.contains("\u{0}") { return PassSearchPage(passes: [], next: nil) }
        let fetch = search.limit + 1
        let engine = database.engine
        return try await storing("search the passes") {
            var found: [PassSearchResult]
            if let text {
                let bySerial = try await database.query(Self.searchQuery(
                    .serialPrefix(text), template: search.template, after: search.after, limit: fetch, engine: engine))
                let byData = try await database.query(Self.searchQuery(
                    .dataContains(text), template: search.template, after: search.after, limit: fetch, engine: engine))
                found = Self.merge(try bySerial.map(PassSearchResult.init(row:)), try byData.map(PassSearchResult.init(row:)))
            } else {
                found = try await database.query(Self.searchQuery(
                    .all, template: search.template, after: search.after, limit: fetch, engine: engine)).map(PassSearchResult.init(row:))
            }
            guard found.count > search.limit else { return PassSearchPage(passes: found, next: nil) }
            found.removeLast(found.count - search.limit)
            return PassSearchPage(passes: found, next: found.last?.key)
        }
    }

    /// What one search statement matches.
    enum SearchMatch: Sendable {
        /// Every pass (of the template, with one).
        case all
        /// Serial numbers starting with the prefix.
        case serialPrefix(String)
        /// Records whose JSON text contains the string.
        case dataContains(String)
    }

    /// One statement of ``searchPasses(_:)``, on its own so tests can ask each engine for its plan.
    static func searchQuery(_ match: SearchMatch, template: String?, after: PassKey?, limit: Int, engine: DatabaseEngine) -> SQL {
        // Byte order on PostgreSQL too, whatever the database's collation: the indexes are built so.
        let collate = engine == .postgres ? #" COLLATE "C""# : ""
        let serial = "serial_number" + collate, type = "pass_type_identifier" + collate
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        if let template {
            conditions.append("template = ?")
            parameters.append(.text(template))
        }
        switch match {
        case .all:
            break
        case .serialPrefix(let prefix):
            conditions.append("\(serial) >= ?")
            parameters.append(.text(prefix))
            if let end = successor(ofPrefix: prefix) {
                conditions.append("\(serial) < ?")
                parameters.append(.text(end))
            }
        case .dataContains(let needle):
            conditions.append(engine == .postgres ? "strpos(data, ?) > 0" : "instr(data, ?) > 0")
            parameters.append(.text(needle))
        }
        if let after {
            conditions.append("(\(serial), \(type)) > (?, ?)")
            parameters += [.text(after.serialNumber), .text(after.passTypeIdentifier)]
        }
        parameters.append(.integer(Int64(limit)))
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // Only the fixed fragments above are concatenated; every value is a parameter.
        return SQL(
            unsafeText: """
            SELECT pass_type_identifier, serial_number, template, template_version, update_tag, updated_at, voided
            FROM passes
            \(filter)
            ORDER BY \(serial), \(type)
            LIMIT ?
            """,
            parameters: parameters)
    }

    /// The least string greater than every string that starts with `prefix`, in byte (UTF-8, so
    /// scalar) order: the last scalar plus one, carried leftwards past U+10FFFF and skipping the
    /// surrogates; `nil` when there is none (every scalar is U+10FFFF), and the range is open above.
    static func successor(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }

    /// Two result lists, each in search order, as one in search order without duplicates.
    static func merge(_ first: [PassSearchResult], _ second: [PassSearchResult]) -> [PassSearchResult] {
        var merged: [PassSearchResult] = []
        merged.reserveCapacity(first.count + second.count)
        var i = first.startIndex, j = second.startIndex
        while i < first.endIndex || j < second.endIndex {
            if j == second.endIndex || (i < first.endIndex && precedes(first[i].key, second[j].key)) {
                merged.append(first[i]); i += 1
            } else if i == first.endIndex || precedes(second[j].key, first[i].key) {
                merged.append(second[j]); j += 1
            } else {
                merged.append(first[i]); i += 1; j += 1
            }
        }
        return merged
    }

    /// Search order: serial number, then pass type identifier, bytewise (as SQLite's BINARY and
    /// PostgreSQL's "C" collation compare; Swift's own `<` on strings is not bytewise).
    static func precedes(_ a: PassKey, _ b: PassKey) -> Bool {
        if !a.serialNumber.utf8.elementsEqual(b.serialNumber.utf8) { return a.serialNumber.utf8.lexicographicallyPrecedes(b.serialNumber.utf8) }
        return a.passTypeIdentifier.utf8.lexicographicallyPrecedes(b.passTypeIdentifier.utf8)
    }
}
