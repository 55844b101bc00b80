@testable import PassLint
import Foundation
import PassModel

/// Applies a finding's After to the template the way a person would: After is JSON members
/// (`"key": value, …`) merged into the object that holds the location's key.
enum FindingFix {
    /// The spec with `finding.after` applied; `nil` when After is not mechanical JSON.
    static func apply(_ finding: Finding, to spec: TemplateSpec) -> TemplateSpec? {
        guard finding.location.hasPrefix("pass.json "),
              case .object(let members)? = try? JSONValue.parse(Data("{\(finding.after)}".utf8)) else { return nil }
        let path = String(finding.location.dropFirst("pass.json ".count))
        let parent = JSONTree.parent(path)
        var fixed = spec
        for (key, value) in members {
            fixed.set(parent.isEmpty ? key : "\(parent).\(key)", value)
        }
        return fixed
    }
}
