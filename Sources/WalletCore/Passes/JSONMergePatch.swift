import PassModel

/// RFC 7386 JSON Merge Patch: how `PATCH {"data": {…}}` changes a pass's record. Members of the patch
/// replace members of the target, objects merge recursively, and `null` removes a member.
enum JSONMergePatch {
    static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
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
}
