import Foundation

/// Everything that can go wrong while loading identities, signing or verifying.
///
/// Each case says where (a file, a folder, an operation) and carries OpenSSL's own error text
/// when OpenSSL reported one, so a user can act on the message without a debugger.
public enum SigningError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A file or folder could not be read, listed or written.
    case fileAccess(path: String, operation: String, reason: String)
    /// The bytes are not an X.509 certificate in PEM or DER form.
    case invalidCertificate(source: String, details: String)
    /// The bytes are not a private key OpenSSL can read (and no passphrase was involved).
    case invalidPrivateKey(source: String, details: String)
    /// The key or `.p12` is encrypted and no passphrase was given.
    case passphraseRequired(source: String)
    /// The key or `.p12` is encrypted and the passphrase given does not open it.
    case wrongPassphrase(source: String, details: String)
    /// The `.p12` file is damaged or holds no certificate and key.
    case invalidPKCS12(source: String, details: String)
    /// The private key does not belong to the certificate it is paired with.
    case keyDoesNotMatchCertificate(source: String, details: String)
    /// An identity folder lacks the files that make an identity.
    case incompleteIdentity(folder: String, missing: String)
    /// The certificate in a pass type's folder is for another pass type identifier.
    case identityMismatch(folder: String, certificatePassTypeIdentifier: String?)
    /// No WWDR intermediate issued the signer certificate; Wallet would reject the chain.
    case noMatchingIntermediate(signerIssuer: String, candidates: [String])
    /// A certificate is expired or not yet valid at the moment that matters.
    case certificateNotValid(role: String, subject: String, notBefore: Date, notAfter: Date, at: Date)
    /// OpenSSL failed while building a signature.
    case signingFailed(operation: String, details: String)
    /// A signature did not verify; `problem` says which check failed.
    case verificationFailed(SignatureProblem, details: String)
    /// OpenSSL failed while creating a key or a certificate.
    case certificateCreation(operation: String, details: String)
    /// `certs import` will not make an identity of `source`: what is wrong, and what to do instead.
    case importRefused(source: String, problem: String, remedy: String)

    public var description: String {
        switch self {
        case let .fileAccess(path, operation, reason):
            return "Cannot \(operation) \(path): \(reason)"
        case let .invalidCertificate(source, details):
            return "\(source) is not a PEM or DER X.509 certificate (OpenSSL: \(details))"
        case let .invalidPrivateKey(source, details):
            return "\(source) is not a private key OpenSSL can read (OpenSSL: \(details))"
        case let .passphraseRequired(source):
            return "\(source) is encrypted and no passphrase was given"
        case let .wrongPassphrase(source, details):
            return "The passphrase does not open \(source) (OpenSSL: \(details))"
        case let .invalidPKCS12(source, details):
            return "\(source) is not a PKCS#12 file with a certificate and a private key (OpenSSL: \(details))"
        case let .keyDoesNotMatchCertificate(source, details):
            return "The private key in \(source) does not belong to its certificate (OpenSSL: \(details))"
        case let .incompleteIdentity(folder, missing):
            return "Identity folder \(folder) is incomplete: \(missing)"
        case let .identityMismatch(folder, found):
            return "The certificate in \(folder) is for pass type identifier \(found ?? "(none)"), not for the folder's name"
        case let .noMatchingIntermediate(issuer, candidates):
            let list = candidates.isEmpty ? "none" : candidates.joined(separator: " | ")
            return "No WWDR intermediate issued the signer certificate (its issuer: \(issuer)); candidates: \(list). Add Apple's matching WWDR certificate (G4 for certificates issued since 2022)."
        case let .certificateNotValid(role, subject, notBefore, notAfter, at):
            let state = at < notBefore ? "not valid before \(notBefore)" : "expired on \(notAfter)"
            return "The \(role) \(subject) is \(state) (checked at \(at))"
        case let .signingFailed(operation, details):
            return "Signing failed at \(operation) (OpenSSL: \(details))"
        case let .verificationFailed(problem, details):
            return "Signature verification failed: \(problem) (OpenSSL: \(details))"
        case let .certificateCreation(operation, details):
            return "Creating a key or certificate failed at \(operation) (OpenSSL: \(details))"
        case let .importRefused(source, problem, remedy):
            return "\(source): \(problem). \(remedy)"
        }
    }
}
