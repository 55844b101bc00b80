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

    private static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let string)?: return string
        case .number(let number)?: return number.rounded() == number ? String(Int64(number)) : String(number)
        default: return nil
        }
    }
}
