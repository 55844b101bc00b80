#if canImport(Glibc)
import Glibc
#endif

/// Whether the current thread may wait in a short blocking C call (a database round trip) instead of
/// handing the work to a thread of its own.
///
/// Swift's cooperative threads must never block (there are as many as cores), so the database's
/// blocking calls run on connection threads, and a request that waits for one crosses threads three
/// times: to the connection's thread, back to a cooperative thread, and to the HTTP daemon thread
/// that sends the answer. The HTTP server's daemon threads are not cooperative threads: while a
/// responder's first step runs on one (`FirstStepInline`), the server grants this permit, and a
/// read that can run at once runs right there, as a bare C server would, and as SQLite's reads do.
/// A permit is per thread and lasts only until the first step ends or the task first suspends.
public enum BlockingPermit {
    /// Whether the current thread holds the permit.
    public static var isGranted: Bool {
        pthread_getspecific(key) != nil
    }

    /// Grants the permit to the current thread until ``revoke()``.
    public static func grant() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    }

    /// Takes the permit back from the current thread.
    public static func revoke() {
        pthread_setspecific(key, nil)
    }

    /// The thread-specific slot: a key made once per process (never deleted).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "a thread-specific key is available")
        return key
    }()
}
