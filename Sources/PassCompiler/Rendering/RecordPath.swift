import PassModel

/// Finds a placeholder's value in a record: `member.name` is the key `member.name` if the record has
/// it (CSV headers are flat), else `name` inside `member`; a numeric segment indexes an array.
enum RecordPath {
    static func lookup(_ path: String, in record: JSONValue) -> JSONValue? {
        if case .object(let object) = record, let flat = object[path] { return flat }
        var current = record
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let object):
                guard let next = object[String(segment)] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(segment), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
