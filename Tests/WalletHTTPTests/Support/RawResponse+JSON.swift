import Foundation
import PasswrightTesting

extension RawResponse {
    /// The body as JSON.
    func json() throws -> JSON {
        do {
            return try JSON(parsing: body)
        } catch {
            throw FixtureError("the body is not JSON (\(error)): \(text.prefix(500))")
        }
    }
}
