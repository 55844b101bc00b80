import Foundation
import PassModel
import WalletStore

/// Pass personalization (Apple's Wallet Web Service Reference, personalization): Wallet posts the holder's sign-up details once, with no token.
public extension PassService {
    /// What a personalization request comes to.
    enum Personalization: Sendable, Equatable {
        /// Stored; the body is the signed personalization token Wallet expects back.
        case signed(Data)
        /// No such pass, or its template asks for no sign-up (HTTP 404, the same for both).
        case notOffered
        /// The pass holds a personalization already (HTTP 409): nobody can rewrite it by knowing
        /// its serial number.
        case alreadyPersonalized
    }

    /// Whether the pass's record holds a personalization already.
    static func isPersonalized(_ pass: StoredPass) throws -> Bool {
        guard case .object(let data) = try value(pass.data) else { return false }
        return data["personalization"] != nil
    }

    /// Stores `info` as the pass's `personalization` and signs `token` with the pass's identity.
    ///
    /// "Only once" is checked on the row the write replaces (inside the compare-and-swap retry), so two
    /// racing requests cannot both personalize the pass.
    func personalize(_ key: PassKey, token: String, info: JSONObject) async throws -> Personalization {
        guard let pass = try await store.pass(key), await offersPersonalization(pass) else { return .notOffered }
        let change = Change(data: .object(["personalization": .object(info)]))
        do {
            _ = try await writer.write(key, change, origin: Self.personalizationOrigin) { current in
                guard try !Self.isPersonalized(current) else { throw AlreadyPersonalized() }
            }
        } catch is AlreadyPersonalized {
            return .alreadyPersonalized
        }
        return .signed(try await signPersonalizationToken(token, for: pass))
    }

    /// The author of a sign-up Wallet sent for the pass (the holder, whose details these are).
    static let personalizationOrigin = WriteOrigin(actor: "personalization", source: .wallet)

    /// Thrown inside the update to stop it without writing.
    private struct AlreadyPersonalized: Error {}
}
