/// Whether a device log line names a pass or an order, for erasure.
///
/// Wallet's log lines name the document inside prose ("… serial number 7, if-modified-since …",
/// "…/passes/pass.example/7"). A plain substring search would take the serial number `7` to be in
/// "17" and in "2027", and erasing one pass would wipe most of the log. An occurrence counts when the
/// characters on both sides of it are not letters or digits: a longer identifier that merely contains
/// this one is spared, while anything that could be the document itself (the identifier beside
/// punctuation, a slash, a space or the line's ends) is taken, since erasure must not leave the
/// holder's document named.
enum DeviceLogMention {
    static func names(_ identifier: String, in message: String) -> Bool {
        guard !identifier.isEmpty else { return false }
        var searchStart = message.startIndex
        while let found = message[searchStart...].range(of: identifier) {
            let before = found.lowerBound == message.startIndex ? nil : message[message.index(before: found.lowerBound)]
            let after = found.upperBound == message.endIndex ? nil : message[found.upperBound]
            if !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false) { return true }
            searchStart = message.index(after: found.lowerBound)
        }
        return false
    }

    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
}
