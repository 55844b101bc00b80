/// Whether a request comes from a link-preview fetcher (a chat app or social network drawing the card
/// for a shared link) or a search crawler rather than a person: the holder page still answers it —
/// the Open Graph tags are for exactly these — but it is not counted as a page view.
///
/// Matched by the tokens these fetchers put in their `User-Agent`; Apple's Messages sends
/// `facebookexternalhit/1.1 Facebot Twitterbot/1.0`.
enum LinkPreviewAgent {
    static let tokens = [
        "facebookexternalhit", "Facebot", "Twitterbot", "Slackbot", "Slack-ImgProxy", "LinkedInBot", "WhatsApp", "TelegramBot",
        "Discordbot", "SkypeUriPreview", "Teams", "redditbot", "Pinterestbot", "Embedly", "vkShare", "Googlebot", "bingbot",
        "Applebot", "DuckDuckBot", "YandexBot",
    ]

    static func matches(_ userAgent: String?) -> Bool {
        guard let userAgent else { return false }
        return tokens.contains { userAgent.localizedCaseInsensitiveContains($0) }
    }
}
