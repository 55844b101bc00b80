# Sourced by the benchmarks that run `passwright serve` on a throwaway PostgreSQL.
#
#   bench_setup NAME     # sets bin (the release build, or $PASSWRIGHT_BIN), work and pg_dir
#
# At exit the server whose pid is in $server is killed, the PostgreSQL in $pg_dir (if started with
# scripts/postgres.sh start "$pg_dir" PORT) stopped, and both folders removed.
bench_setup() {
  if [ -z "${PASSWRIGHT_BIN:-}" ]; then
    swift build -c release --product passwright >&2
    PASSWRIGHT_BIN=$PWD/.build/release/passwright
  fi
  bin=$PASSWRIGHT_BIN
  work=$(mktemp -d "/tmp/passwright-$1.XXXXXX")
  pg_dir=$(mktemp -d "/tmp/passwright-$1-pg.XXXXXX")  # the postgres user must reach it
  trap bench_cleanup EXIT
}

bench_cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  scripts/postgres.sh stop "$pg_dir" 2>/dev/null || true
  rm -rf "$work" "$pg_dir"
}
