import Foundation
import PassModel

extension W3CDate {
    /// The value a blank model holds until decoding fills in its required date.
    static let placeholder = W3CDate(date: Date(timeIntervalSince1970: 0))
}
