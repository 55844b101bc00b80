import Foundation
import PassModel
import Signing

extension Template {
    /// The `pass.json` tree one input produces — placeholders filled, then the serial number, web
    /// service URL and token completed — exactly as ``PassCompiler`` signs it, so tools that check a
    /// pass without signing it (the linter) see what the holder would get.
    public func render(_ input: PassInput, options: CompileOptions) throws(PassCompilerError) -> JSONValue {
        guard case .object(var object) = try root.render(input.record, recordName: input.recordName) else {
            throw .invalidTemplate(file: "pass.json", path: "", message: "must be a JSON object")
        }
        for (key, value) in input.overrides { object[key] = value }
        Self.dropEmptyBarcodes(&object)
        let record = input.record
        if let serial = input.serialNumber ?? Self.string(RecordPath.lookup("serialNumber", in: record)) {
            object["serialNumber"] = .string(serial)
        } else if object["serialNumber"] == nil {
            object["serialNumber"] = .string(UUID().uuidString.lowercased())
        }
        if let url = options.webServiceURL { object["webServiceURL"] = .string(url) }
        if object["webServiceURL"] != nil {
            if let token = input.authenticationToken ?? Self.string(RecordPath.lookup("authenticationToken", in: record)) {
                object["authenticationToken"] = .string(token)
            } else if object["authenticationToken"] == nil {
                object["authenticationToken"] = .string(SecureRandom.token(length: options.tokenLength))
            }
        }
        return .object(object)
    }

    /// Leaves out the barcodes whose message came out empty (an erased pass's, whose values are
    /// blanked, or a record with an empty value): no symbology encodes nothing, so Wallet would show
    /// a blank plate, or nothing, where a code belongs. A pass left with none has no `barcodes` key.
    private static func dropEmptyBarcodes(_ object: inout JSONObject) {
        func isEmpty(_ barcode: JSONValue) -> Bool {
            if case .object(let fields) = barcode, case .string(let message)? = fields["message"] { return message.isEmpty }
            return false
        }
        if case .array(let barcodes)? = object["barcodes"] {
            let drawable = barcodes.filter { !isEmpty($0) }
            object["barcodes"] = drawable.isEmpty ? nil : .array(drawable)
        }
        if let barcode = object["barcode"], isEmpty(barcode) { object["barcode"] = nil }
    }

    private static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let string)?: return string
        case .number(let number)?: return number.rounded() == number ? String(Int64(number)) : String(number)
        default: return nil
        }
    }
}
