/// An error that can stand for several problems at once (its `several` case), so a run reports
/// every problem instead of stopping at the first: PassModel's decoding and PassCompiler's errors.
public protocol ProblemCollection: Error {
    /// The error that stands for `errors` together.
    static func several(_ errors: [Self]) -> Self
    /// The errors this one stands for when it is `several`, else `nil`.
    var severalProblems: [Self]? { get }
}

extension ProblemCollection {
    /// The single problems this error stands for (itself, unless it is `several`), flattened.
    public var problems: [Self] {
        severalProblems.map { $0.flatMap(\.problems) } ?? [self]
    }

    /// One error for a non-empty list of problems: the problem itself when there is one.
    public static func combining(_ errors: [Self]) -> Self {
        let flat = errors.flatMap(\.problems)
        return flat.count == 1 ? flat[0] : .several(flat)
    }
}
