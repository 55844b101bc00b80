#!/usr/bin/env bash
# Sets up everything the tests need and runs them all: installs the Debian packages, starts a
# throwaway PostgreSQL on 127.0.0.1 (stopped again on exit), builds, and runs `swift test`.
#
#   scripts/test.sh                 # everything
#   scripts/test.sh --filter Signing   # extra arguments go to `swift test`
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

pg_dir=$(mktemp -d /tmp/passwright-pg.XXXXXX)
pg_port=${PASSWRIGHT_TEST_POSTGRES_PORT:-55432}
cleanup() {
  scripts/postgres.sh stop "$pg_dir" 2>/dev/null || true
  rm -rf "$pg_dir"
}
trap cleanup EXIT
PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$pg_dir" "$pg_port")
export PASSWRIGHT_TEST_POSTGRES_URL
echo "test: PostgreSQL at $PASSWRIGHT_TEST_POSTGRES_URL" >&2

swift build --build-tests

if [ "$#" -gt 0 ]; then
  exec swift test --skip-build "$@"
fi

# One process per test target: the in-process HTTP servers of some suites need the cooperative
# thread pool, which the CPU-heavy suites of others (RSA key generation, 10,000-pass batches) would
# otherwise keep busy on a 2-core machine.
passed=0
failed=0
failed_targets=()
for dir in Tests/*Tests; do
  target=$(basename "$dir")
  echo "test: $target" >&2
  if swift test --skip-build --filter "^$target\\."; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failed_targets+=("$target")
  fi
done
[ "$failed" -eq 0 ] || echo "test: failed targets: ${failed_targets[*]}" >&2
echo "targets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
