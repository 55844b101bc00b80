import Locking
import Synchronization

/// Why the database cannot take writes now: the last failure of kind ``StorageError/Kind/unavailable``
/// or ``StorageError/Kind/full``, kept until the database proves otherwise.
public struct StorageFailure: Sendable, Equatable {
    /// `unavailable` or `full`, never `other`.
    public var kind: StorageError.Kind
    /// What failed, naming the engine and, for a full database, its file or server and what to do.
    public var reason: String

    /// A failure of `kind`, explained by `reason`.
    public init(kind: StorageError.Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// The database's last failure of a kind that outlasts one request, shared by every caller of one
/// ``Database`` (``Database/health``), so `/readyz` can say "not ready" while writes can only fail.
///
/// A database records each operation here: a failure that is ``StorageError/Kind/unavailable`` or
/// ``StorageError/Kind/full`` is kept; a later success clears it — any answer clears "unavailable",
/// but only a write clears "full", since reads go on while the volume is full. Nobody has to clear
/// it: the next request, or ``Database/probe()``, does.
public final class StorageHealth: Sendable {
    private let failure = Locked<StorageFailure?>(nil)
    /// Whether `failure` is set: a success checks this and takes the lock only after a failure.
    private let failing = Atomic(false)

    /// A healthy start: nothing has failed yet.
    public init() {}

    /// The failure kept now, `nil` once the database answered (and, after "full", took a write).
    public var lastFailure: StorageFailure? {
        guard failing.load(ordering: .acquiring) else { return nil }
        return failure.withLock { $0 }
    }

    /// Runs one operation of the database and records how it ended; `writing` says whether its
    /// success proves there is room to write.
    func observe<T>(writing: Bool, _ body: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await body()
        } catch {
            record(error)
            throw error
        }
        succeeded(writing: writing)
        return value
    }

    /// Keeps `error` when it is a ``StorageError`` of a lasting kind; ignores every other error (a
    /// constraint, a caller's own error thrown from a transaction body).
    func record(_ error: any Error) {
        guard let error = error as? StorageError, error.kind != .other else { return }
        failure.withLock { failure in
            failure = StorageFailure(kind: error.kind, reason: error.description)
            failing.store(true, ordering: .releasing)
        }
    }

    /// Clears the failure kept, if this success disproves it.
    func succeeded(writing: Bool) {
        guard failing.load(ordering: .acquiring) else { return }
        failure.withLock { failure in
            guard let kind = failure?.kind, writing || kind == .unavailable else { return }
            failure = nil
            failing.store(false, ordering: .releasing)
        }
    }
}
