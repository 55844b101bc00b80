/// RFC 7386 JSON Merge Patch: how `PATCH {"data": {…}}` changes a pass's record and a patch changes an
/// order (the API, the console, `batch` over an order folder). Members of the patch replace members of
/// the target, objects merge recursively, and `null` removes a member.
public enum JSONMergePatch {
    public static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let patchObject) = patch else { return patch }
        var result: JSONObject
        if case .object(let targetObject) = target { result = targetObject } else { result = JSONObject() }
        for (key, value) in patchObject {
            if value == .null {
                result[key] = nil
            } else {
                result[key] = apply(value, to: result[key] ?? .null)
            }
        }
        return .object(result)
    }

    /// The patch that turns `source` into `target` (`apply(diff(source, target), to: source) ==
    /// target`): changed members, objects recursively, removed members as `null`. A form that edits a
    /// whole document sends only what it changed, through the same write path as the API's patches.
    /// (A `null` *value* in `target` cannot be expressed by a merge patch; Wallet documents have none.)
    public static func diff(from source: JSONObject, to target: JSONObject) -> JSONObject {
        var patch = JSONObject()
        for key in source.keys where target[key] == nil { patch[key] = .null }
        for (key, value) in target where source[key] != value {
            if case .object(let before)? = source[key], case .object(let after) = value {
                patch[key] = .object(diff(from: before, to: after))
            } else {
                patch[key] = value
            }
        }
        return patch
    }
}
