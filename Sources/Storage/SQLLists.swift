/// The repeated fragments of a statement written for a batch, and the batches themselves: every
/// multi-row `INSERT`, `VALUES` list and `IN` list of the stores is built from these two, so the
/// text a batch sends is assembled one way and a batch never outgrows the engines' parameter limits.
extension SQL {
    /// `item, item, …`: `count` copies of a fixed fragment, for a `VALUES` list (`"(?, ?)"`) or an
    /// `IN` list (`"?"`). Only placeholders and fixed text go in `item`; values stay parameters.
    public static func list(_ item: String, count: Int) -> String {
        Array(repeating: item, count: count).joined(separator: ", ")
    }

    /// `?, ?, …`: `count` placeholders for an `IN` list.
    public static func placeholders(_ count: Int) -> String {
        list("?", count: count)
    }
}

extension Collection {
    /// The collection cut into consecutive slices of at most `size` elements, in order: the batches
    /// of a write that must stay under a statement's parameter limit or a transaction's length.
    public func batches(of size: Int) -> [SubSequence] {
        precondition(size > 0, "a batch holds at least one element")
        var slices: [SubSequence] = []
        var start = startIndex
        while start != endIndex {
            let end = index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex
            slices.append(self[start..<end])
            start = end
        }
        return slices
    }
}
