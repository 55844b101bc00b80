#!/usr/bin/env bash
# Bulk issuing over the API against the batch CLI, measured in the same run on the same machine.
#
#   Benchmarks/bulk.sh [RECORDS] [--engine sqlite|postgres]     (default: 100000, sqlite)
#
# Builds release, then on the loyalty sample template (the server's store on ENGINE; PostgreSQL is a
# throwaway one from scripts/postgres.sh per server, on this machine's cores):
#   1. `passwright batch --jobs $(nproc)` builds RECORDS signed passes to a folder on disk: the limit;
#   2. `passwright serve` and `passwright issue` upload RECORDS records as a CSV and follow
#      the job until every record is issued: records per second from the start of the upload to the
#      job's end, and the ratio to (1) (the goal: at least 0.7);
#      then fetches every .pkpasses bundle of the job (the passes are signed when fetched);
#   3. the server's peak RSS (VmHWM) for a job of RECORDS/10 and one of RECORDS, each on a fresh
#      server (flat memory: the second is not much bigger than the first);
#   4. a job of RECORDS records whose server gets SIGKILL halfway: the restarted server finishes it,
#      and the database then holds exactly RECORDS passes of it.
# Prints a markdown table and the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
records=100000
engine=sqlite
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) records=$1; shift ;;
  esac
done
case "$engine" in sqlite|postgres) ;; *) echo "bulk: --engine sqlite|postgres" >&2; exit 64 ;; esac
small=$((records / 10))
command -v /usr/bin/time >/dev/null || { apt-get install -y -qq time >/dev/null; }

swift build -c release --product passwright >&2
bin=$PWD/.build/release/passwright
work=$(mktemp -d /tmp/passwright-bulk.XXXXXX)
chmod 755 "$work"  # PostgreSQL's own user keeps its data in here
server_pid=
postgres_dirs=()
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  for dir in "${postgres_dirs[@]}"; do scripts/postgres.sh stop "$dir" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
$bin certs dev --out "$work/ids" --pass-type-id pass.dev.passwright.loyalty >/dev/null

source Benchmarks/lib/records.sh
make_csv "$records" "$work/records.csv" A
make_csv "$small" "$work/small.csv" S
make_csv "$records" "$work/kill.csv" K

# 1. The batch CLI, every core, to disk.
jobs=$(nproc)
/usr/bin/time -f "%e" -o "$work/batch-time" $bin batch Templates/loyalty --input "$work/records.csv" --out-dir "$work/batch" \
  --identities "$work/ids" --jobs "$jobs" 2>/dev/null
batch_rate=$(python3 -c "print(round($records / $(cat "$work/batch-time")))")
rm -rf "$work/batch"

export PASSWRIGHT_ADMIN_TOKEN=bench-admin-token-0123456789abcdef
database_for() {  # database_for DATA_DIR: the store of that server, made once (a restarted server finds it again)
  if [ "$engine" = sqlite ]; then echo "sqlite:$1/passwright.sqlite"; return; fi
  if [ ! -f "$1.url" ]; then
    scripts/postgres.sh start "$1-postgres" >"$1.url"
  fi
  cat "$1.url"
}
start_server() {  # start_server DATA_DIR: serve on a free port in the background; sets server_pid and port
  mkdir -p "$1"
  if [ "$engine" = postgres ] && [ ! -f "$1.url" ]; then postgres_dirs+=("$1-postgres"); fi
  database=$(database_for "$1")
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  $bin serve --port "$port" --data-dir "$1" --database "$database" --templates Templates --identities "$work/ids" --push off \
    --log-level warning --job-lease 5 >"$1.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "bulk: the server did not start; see $1.log" >&2
  exit 1
}
peak_rss() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server_pid/status"; }
stop_server() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=; }
job_state() {  # job_state ID: "state issued failed"
  curl -fsS -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" "http://127.0.0.1:$port/api/v1/jobs/$1" |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["state"], j["issued"], j["failed"])'
}

# 2. The same records through the API, upload to the last record issued.
start_server "$work/api"
started=$(date +%s.%N)
$bin issue "$work/records.csv" --template loyalty --server "http://127.0.0.1:$port" >"$work/issue.out" 2>"$work/issue.err"
ended=$(date +%s.%N)
api_rate=$(python3 -c "print(round($records / ($ended - $started)))")
grep -q "completed: $records issued, 0 failed" "$work/issue.err" || { echo "bulk: the API job did not issue every record:" >&2; tail -3 "$work/issue.err" >&2; exit 1; }
job_rate=$(grep -o '([0-9]* records/s)' "$work/issue.err" | tr -dc '0-9')
big_rss=$(peak_rss)
# The job stores passes; they are signed when fetched. Every bundle of the job, $(nproc) at a time.
job_id=$(grep -o 'job_[0-9a-f_]*' "$work/issue.err" | head -1)
parts=$(( (records + 9) / 10 ))
started=$(date +%s.%N)
seq 1 "$parts" | xargs -P "$jobs" -I{} curl -fsS -o /dev/null -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" \
  "http://127.0.0.1:$port/api/v1/jobs/$job_id/bundle?part={}"
ended=$(date +%s.%N)
bundle_rate=$(python3 -c "print(round($records / ($ended - $started)))")
stop_server

# 3. Peak RSS for a tenth of the records, on a fresh server.
start_server "$work/small"
$bin issue "$work/small.csv" --template loyalty --server "http://127.0.0.1:$port" >/dev/null 2>&1
small_rss=$(peak_rss)
stop_server

# 4. SIGKILL halfway, restart, resume.
start_server "$work/kill"
job=$($bin issue "$work/kill.csv" --template loyalty --no-wait --server "http://127.0.0.1:$port" 2>/dev/null | tail -1)
while read -r state issued failed < <(job_state "$job"); [ "$issued" -lt $((records / 2)) ]; do sleep 0.05; done
kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true
killed_at=$issued
start_server "$work/kill"
while read -r state issued failed < <(job_state "$job"); [ "$state" != completed ]; do sleep 0.5; done
stop_server
count_k="SELECT count(*) FROM passes WHERE serial_number LIKE 'K%'"
if [ "$engine" = sqlite ]; then
  stored=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$work/kill/passwright.sqlite" "$count_k")
else
  stored=$(psql -qtA "$(cat "$work/kill.url")" -c "$count_k")
fi

cat <<TABLE
| measure | value | vs. limit |
|---|---|---|
| \`batch --jobs $jobs\`, $records signed passes to disk | $batch_rate passes/s | limit |
| \`passwright issue\` → bulk job, $records records, upload to last pass issued | $api_rate records/s | $(python3 -c "print(f'{$api_rate / $batch_rate:.2f}')")× batch (goal ≥ 0.70) |
| the job's own rate (first claim to last settlement) | $job_rate records/s | |
| its $parts \`.pkpasses\` bundles fetched, $jobs at a time (each pass signed on request) | $bundle_rate passes/s | $(python3 -c "print(f'{$bundle_rate / $batch_rate:.2f}')")× batch |
| server peak RSS, job of $small records | $small_rss MiB | |
| server peak RSS, job of $records records | $big_rss MiB | $(python3 -c "print(f'{$big_rss / $small_rss:.2f}')")× the $small-record job |
| SIGKILL at $killed_at of $records issued, restarted | $issued issued, $failed failed; $stored passes of the job stored | exactly $records expected |
TABLE
echo "engine: $engine; machine: $(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg)"
