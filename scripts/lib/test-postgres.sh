# Sourced by the test scripts: makes sure PASSWRIGHT_TEST_POSTGRES_URL names a running PostgreSQL.
# When the caller already has one (scripts/test.sh starts one for everything it runs), it is used;
# otherwise a throwaway server is started on 127.0.0.1 and stopped when the script exits.
if [ -z "${PASSWRIGHT_TEST_POSTGRES_URL:-}" ]; then
  test_pg_dir=$(mktemp -d /tmp/passwright-pg.XXXXXX)  # directly under /tmp: the postgres user must reach it
  stop_test_postgres() {
    scripts/postgres.sh stop "$test_pg_dir" 2>/dev/null || true
    rm -rf "$test_pg_dir"
  }
  trap stop_test_postgres EXIT
  PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$test_pg_dir" ${PASSWRIGHT_TEST_POSTGRES_PORT:+"$PASSWRIGHT_TEST_POSTGRES_PORT"})
  export PASSWRIGHT_TEST_POSTGRES_URL
  echo "test: PostgreSQL at $PASSWRIGHT_TEST_POSTGRES_URL" >&2
fi
