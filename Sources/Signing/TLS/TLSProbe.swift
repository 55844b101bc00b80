internal import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shakes hands with a TLS server and reports what it agreed to (`TLSHandshake`), without sending a
/// request: `passwright doctor` judges a deployment's HTTPS by it the way Wallet would.
///
/// The certificate is checked but never enforced, so a handshake with an untrusted server still
/// reports what is wrong with it. Trust comes from `caFile`, or OpenSSL's default store, which honours
/// `SSL_CERT_FILE` and `SSL_CERT_DIR`. Blocking: call it off the cooperative pool.
public struct TLSProbe: Sendable {
    public var host: String
    public var port: Int
    public var caFile: URL?
    public var timeout: Duration

    public init(host: String, port: Int, caFile: URL? = nil, timeout: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.caFile = caFile
        self.timeout = timeout
    }

    private var server: String { "\(host):\(port)" }

    /// The TLS 1.2 suites App Transport Security allows (Apple's "Preventing Insecure Network
    /// Connections"): forward secret through ECDHE, AES-128 or AES-256.
    static let appTransportSecuritySuites = [
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-SHA384",
        "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES128-SHA",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-SHA384",
        "ECDHE-RSA-AES128-SHA256", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA",
    ].joined(separator: ":")

    /// One handshake with `offer`.
    public func handshake(_ offer: TLSOffer = .appTransportSecurity) throws(TLSProbeError) -> TLSHandshake {
        let socket = try connect()
        defer { close(socket) }
        OpenSSLGate.begin()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .handshakeFailed(server: server, detail: OpenSSLGate.drainErrors())
        }
        defer { SSL_CTX_free(context) }
        // Security level 0 throughout: a short key or a SHA-1 signature is for the report to name,
        // not for OpenSSL to refuse before anything can be learnt.
        SSL_CTX_set_security_level(context, 0)
        switch offer {
        case .appTransportSecurity:
            _ = passwright_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
            _ = SSL_CTX_set_cipher_list(context, Self.appTransportSecuritySuites + ":@SECLEVEL=0")
        case .anyCipher:
            _ = passwright_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
            _ = SSL_CTX_set_cipher_list(context, "ALL:@SECLEVEL=0")
        case .legacy:
            _ = passwright_SSL_CTX_set_min_proto_version(context, TLS1_VERSION)
            _ = passwright_SSL_CTX_set_max_proto_version(context, TLS1_1_VERSION)
            _ = SSL_CTX_set_cipher_list(context, "ALL:@SECLEVEL=0")
        }
        let trusted = caFile.map { SSL_CTX_load_verify_locations(context, $0.path, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard trusted == 1 else {
            throw .handshakeFailed(server: server, detail: "the trusted certificates cannot be read (\(caFile?.path ?? "the system store")): \(OpenSSLGate.drainErrors())")
        }
        // Checked, not enforced: the verify result is read after the handshake.
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        guard let ssl = SSL_new(context) else { throw .handshakeFailed(server: server, detail: OpenSSLGate.drainErrors()) }
        defer { SSL_free(ssl) }
        if !isIPAddress(host) { _ = passwright_SSL_set_tlsext_host_name(ssl, host) }
        _ = SSL_set1_host(ssl, host)  // an IP address is matched against the certificate's IP entries
        _ = SSL_set_fd(ssl, socket)
        guard SSL_connect(ssl) == 1 else {
            let queue = OpenSSLGate.drainErrors()
            throw .handshakeFailed(server: server, detail: queue == "no error reported" ? "the server closed the connection" : queue)
        }
        defer { _ = SSL_shutdown(ssl) }
        return try read(ssl)
    }

    private func read(_ ssl: OpaquePointer) throws(TLSProbeError) -> TLSHandshake {
        let version = String(cString: SSL_get_version(ssl))
        let cipher = SSL_get_current_cipher(ssl)
        let cipherName = cipher.map { String(cString: SSL_CIPHER_get_name($0)) } ?? "none"
        let exchangeNID = cipher.map { SSL_CIPHER_get_kx_nid($0) } ?? NID_undef
        let exchange = exchangeNID == NID_kx_any ? "any" : String(cString: OBJ_nid2sn(exchangeNID)).replacingOccurrences(of: "Kx", with: "")
        let verifyResult = SSL_get_verify_result(ssl)
        let failure = verifyResult == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(verifyResult))

        var chain: [Certificate] = []
        if let stack = passwright_SSL_get_peer_cert_chain(ssl) {
            for index in 0..<passwright_sk_X509_num(stack) {
                guard let certificate = passwright_sk_X509_value(stack, index), let der = Self.der(of: certificate) else { continue }
                if let parsed = try? Certificate(der: der) { chain.append(parsed) }
            }
        }
        guard let leaf = SSL_get1_peer_certificate(ssl) else {
            throw .handshakeFailed(server: server, detail: "the server sent no certificate")
        }
        defer { X509_free(leaf) }
        var keyType = "none", keyBits = 0
        if let key = X509_get0_pubkey(leaf) {
            let base = EVP_PKEY_get_base_id(key)
            keyType = base == EVP_PKEY_RSA ? "RSA" : base == EVP_PKEY_EC ? "EC" : (OBJ_nid2sn(base).map { String(cString: $0) } ?? "unknown")
            keyBits = Int(EVP_PKEY_get_bits(key))
        }
        var digestNID: Int32 = NID_undef, keyNID: Int32 = NID_undef
        _ = OBJ_find_sigid_algs(X509_get_signature_nid(leaf), &digestNID, &keyNID)
        let digest = digestNID == NID_undef ? "none" : (OBJ_nid2sn(digestNID).map { String(cString: $0) } ?? "unknown")
        return TLSHandshake(
            protocolVersion: version, cipher: cipherName, keyExchange: exchange, verificationFailure: failure,
            chain: chain, keyType: keyType, keyBits: keyBits, signatureDigest: digest
        )
    }

    private static func der(of certificate: OpaquePointer) -> Data? {
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &buffer)
        guard length > 0, let buffer else { return nil }
        defer { passwright_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// A TCP connection to the first address of `host` that answers within the timeout.
    private func connect() throws(TLSProbeError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .connectFailed(server: server, detail: "the name does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            let socket = Glibc.socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard socket >= 0 else { lastError = String(cString: strerror(errno)); continue }
            if let problem = connect(socket, to: current.pointee) {
                lastError = problem
                close(socket)
                continue
            }
            return socket
        }
        throw .connectFailed(server: server, detail: lastError)
    }

    /// Connects without blocking past the timeout, then leaves the socket blocking with that timeout
    /// on every read and write (OpenSSL's handshake reads and writes plainly). `nil` when connected.
    private func connect(_ socket: Int32, to address: addrinfo) -> String? {
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let flags = fcntl(socket, F_GETFL)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
            var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, milliseconds) == 1 else { return "no answer within \(timeout)" }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else { return String(cString: strerror(failure)) }
        }
        _ = fcntl(socket, F_SETFL, flags)
        var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return nil
    }

    private func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
