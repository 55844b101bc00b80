import HTTPServer
import PassModel
import WalletCore

extension WireJSON {
    /// Decodes a request body the way the server reads it: a JSON object checked by `validate`, whose
    /// refusal (the API's 4xx message) becomes the `DecodingError`'s description.
    static func decodeBody<Body>(_ decoder: any Decoder, _ validate: (JSONObject) throws(HTTPError) -> Body) throws -> Body {
        let object = try JSONObject(from: decoder)
        do {
            return try validate(object)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.detail))
        }
    }
}
