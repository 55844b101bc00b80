/// Rows printed as left-aligned columns under a header, as `templates list` and `templates versions`
/// show what a server answered; `--json` gives the raw answer for scripts.
struct TextTable: Sendable {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    /// Adds a row; missing cells are empty.
    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    /// The table, columns two spaces apart, without trailing spaces.
    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            let line = header.indices.map { column in
                let cell = column < row.count ? row[column] : ""
                return cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }
}
