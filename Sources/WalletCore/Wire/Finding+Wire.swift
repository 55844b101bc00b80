import PassLint

/// A lint finding is its own wire value: `POST /api/v1/templates/{template}/lint` answers an array of
/// them (`Findings`), encoded by ``LintReport/json(_:)`` as `passwright lint --format json` writes them.
extension Finding: WireValue {
    public static let schemaName = "Finding"
}
