internal import COpenSSL

/// Loads OpenSSL 3's `legacy` and `default` providers, once per process.
///
/// Keychain exports `.p12` files encrypted with RC2-40 and 3DES, which OpenSSL 3 only reads with
/// the `legacy` provider; loading a provider explicitly stops the automatic `default` one, so
/// both are loaded. Providers stay loaded for the life of the process.
enum OpenSSLProviders {
    /// Whether the `legacy` provider loaded (false when its module is missing from the install).
    static let legacyLoaded: Bool = {
        let defaultProvider = OSSL_PROVIDER_load(nil, "default")
        let legacyProvider = OSSL_PROVIDER_load(nil, "legacy")
        ERR_clear_error()
        return defaultProvider != nil && legacyProvider != nil
    }()
}
