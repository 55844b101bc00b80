import Foundation
import PassModel

/// Turns the text value of a field that asks for a number (`numberStyle` or `currencyCode`) into
/// that number when it is one, e.g. `"137"` → `137`.
///
/// CSV records carry only text, so `"value": "{{points}}"` from a CSV row renders `"137"`, which
/// Wallet will not format as a number and validation rightly refuses. The field's own keys say a
/// number is meant, the way a W3C date string already becomes a date; text that is not a JSON
/// number is left alone for validation to report.
enum NumericFields {
    static func coerce(_ pass: inout JSONObject) {
        for style in PassStyle.allCases {
            guard case .object(var fields)? = pass[style.key] else { continue }
            for group in PassFields.Group.allCases {
                guard case .array(var list)? = fields[group.rawValue] else { continue }
                for index in list.indices {
                    guard case .object(var field) = list[index],
                          field["numberStyle"] != nil || field["currencyCode"] != nil,
                          case .string(let text)? = field["value"],
                          case .number(let number)? = try? JSONValue.parse(Data(text.utf8)) else { continue }
                    field["value"] = .number(number)
                    list[index] = .object(field)
                }
                fields[group.rawValue] = .array(list)
            }
            pass[style.key] = .object(fields)
        }
    }
}
