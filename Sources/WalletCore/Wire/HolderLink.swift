import Foundation

/// What `GET /api/v1/passes/{type}/{serial}/link` answers: a fresh signed link to the pass's holder
/// page, and what a business needs to hand it out — the `.pkpass` itself, a picture, QR codes for
/// print and an HTML snippet for e-mails — all under the same signature and expiry.
public struct HolderLink: WireValue {
    public static let schemaName = "HolderLink"

    /// The holder page, absolute: the link to send by e-mail or SMS, or print as a QR code.
    public var url: String
    /// The signed `.pkpass` under the same link.
    public var passURL: String
    /// The pass's front as a PNG (what link previews show).
    public var pictureURL: String
    /// A QR code of ``url`` as PNG and as SVG, for print.
    public var qrCodePNG: String
    public var qrCodeSVG: String
    /// When the link and everything under it stop working.
    public var expiresAt: Date
    /// An HTML fragment for an e-mail: the pass's picture and a link to its page, no script, no style sheet.
    public var html: String

    public init(url: String, passURL: String, pictureURL: String, qrCodePNG: String, qrCodeSVG: String, expiresAt: Date, html: String) {
        self.url = url
        self.passURL = passURL
        self.pictureURL = pictureURL
        self.qrCodePNG = qrCodePNG
        self.qrCodeSVG = qrCodeSVG
        self.expiresAt = expiresAt
        self.html = html
    }
}
