import Foundation

extension ServiceConfiguration {
    /// Why the public URL will not work for Wallet, or `nil`: Wallet calls only https web services,
    /// and `0.0.0.0` (a listen address, not a host) or a loopback host is unreachable from a phone.
    /// Logged as a warning at start; development against a simulator or `passwright verify` works.
    public var publicURLWarning: String? {
        guard let components = URLComponents(string: publicURL), let host = components.host?.lowercased() else {
            return "PASSWRIGHT_PUBLIC_URL \(publicURL) is not a URL; passes get \(webServiceURL) as their web service"
        }
        if ["0.0.0.0", "::", "[::]"].contains(host) {
            return "the public URL \(publicURL) names a listen address, not a host a phone can reach; set --public-url or PASSWRIGHT_PUBLIC_URL to the https URL clients use"
        }
        if components.scheme?.lowercased() != "https" {
            return "the public URL \(publicURL) is not https: Wallet only calls https web services, so passes will not register or update; set --public-url or PASSWRIGHT_PUBLIC_URL"
        }
        return nil
    }
}
