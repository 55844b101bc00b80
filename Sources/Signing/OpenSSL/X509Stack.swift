internal import COpenSSL

/// Owns an OpenSSL `STACK_OF(X509)` and a reference to each certificate in it.
///
/// `@unchecked Sendable`: never mutated after `init`; OpenSSL only reads the stack when it is
/// passed to `CMS_sign` or a verification context.
final class X509Stack: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Builds a stack holding its own reference to each certificate.
    init(_ certificates: [X509Object]) throws {
        guard let stack = passwright_sk_X509_new_null() else {
            throw SigningError.signingFailed(operation: "sk_X509_new_null", details: OpenSSLGate.drainErrors())
        }
        pointer = stack
        for certificate in certificates {
            let retained = certificate.retainedPointer()
            if passwright_sk_X509_push(stack, retained) <= 0 {
                X509_free(retained)
                throw SigningError.signingFailed(operation: "sk_X509_push", details: OpenSSLGate.drainErrors())
            }
        }
    }

    /// Adopts a stack whose certificates' references the caller hands over (`CMS_get1_certs`).
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        passwright_sk_X509_pop_free(pointer)
    }

    /// The certificates, each with its own reference.
    var objects: [X509Object] {
        (0..<passwright_sk_X509_num(pointer)).compactMap { index in
            passwright_sk_X509_value(pointer, index).map { X509Object(takingOwnershipOf: X509Object.retaining($0)) }
        }
    }
}
