import WalletCore
import HTTPServer
import PassModel

/// A JSON request body whose members the server checks one by one (an unknown member, a missing
/// one, a wrong type), with the precise 4xx messages the API has always given. A client decoding
/// one meets the same rules, because decoding goes through ``init(validating:)`` too.
public protocol WireRequestBody: WireValue {
    /// Reads a parsed body, or refuses it with the API's status and message.
    init(validating body: JSONObject) throws(HTTPError)
    /// The body's members, as sent.
    var members: JSONObject { get }
}

extension WireRequestBody {
    /// Reads a body as the server does (``init(validating:)``); a refusal is a `DecodingError` with the API's message.
    public init(from decoder: any Decoder) throws {
        self = try WireJSON.decodeBody(decoder, Self.init(validating:))
    }

    /// Writes ``members``.
    public func encode(to encoder: any Encoder) throws {
        try members.encode(to: encoder)
    }
}
