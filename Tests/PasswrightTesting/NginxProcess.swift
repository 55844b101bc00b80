import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx on 127.0.0.1 with TLS in front of a test's server, as a deployment puts one: the
/// test writes the `server` block (protocols, ciphers, certificate, how `/wallet/` is proxied) and
/// nginx runs as one foreground process (`master_process off`), so stopping it leaves nothing behind.
public final class NginxProcess: Sendable {
    public let port: Int
    private let process: RunningProcess
    private let folder: URL

    /// Starts nginx with `serverBlock` (a `server { … }` whose `listen` is `127.0.0.1:<port>`; write it
    /// with ``port``), its files in `folder`; returns once it accepts connections.
    public init(folder: URL, port: Int, serverBlock: String) async throws {
        self.port = port
        self.folder = folder
        let configuration = folder.appendingPathComponent("nginx.conf")
        try Data("""
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log warn;
            events { worker_connections 64; }
            http {
                access_log \(folder.path)/access.log;
                client_body_temp_path \(folder.path)/body;
                proxy_temp_path \(folder.path)/proxy;
                fastcgi_temp_path \(folder.path)/fastcgi;
                uwsgi_temp_path \(folder.path)/uwsgi;
                scgi_temp_path \(folder.path)/scgi;
            \(serverBlock)
            }

            """.utf8).write(to: configuration)
        process = try RunningProcess(URL(fileURLWithPath: Self.executable), ["-p", folder.path, "-c", configuration.path])
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !Self.accepts(port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                stop()
                throw FixtureError("nginx did not start on \(port): \(process.stderrText) \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Debian's nginx.
    public static let executable = "/usr/sbin/nginx"

    /// Stops nginx (SIGKILL: it holds nothing worth a graceful exit) and waits for it.
    public func stop() {
        process.signal(SIGKILL)
        _ = process.waitBlocking()
    }

    /// A port nothing listens on now, for a server whose URL must be known before it starts.
    public static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw FixtureError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
