import Storage
import Testing

/// Which statements count as reads for running on a daemon thread: a `SELECT` only, in any case and
/// after any blank; a `WITH` (which may write) or an `INSERT … RETURNING` is not one.
@Suite struct SQLReadTests {
    @Test func onlyASelectIsARead() {
        #expect(SQL("SELECT 1").isRead && SQL("\n  select serial_number FROM passes").isRead && SQL("Select\n1").isRead)
        #expect(!SQL("WITH changed AS (UPDATE passes SET a = 1 RETURNING 1) SELECT * FROM changed").isRead)
        #expect(!SQL("INSERT INTO t (a) VALUES (1) RETURNING a").isRead && !SQL("SELECTED").isRead && !SQL("SELECT").isRead && !SQL("").isRead)
    }
}
