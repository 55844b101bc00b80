# Sourced by the benchmarks that run `passwright serve` on a throwaway PostgreSQL.
#
#   bench_setup NAME     # sets bin (the release build, or $PASSWRIGHT_BIN), work and pg_dir
#
# At exit (after a failure, $work/serve.log kept as $work.serve.log) the processes whose pids are in $server, $pushers (an array) and $standin are killed, the PostgreSQL in $pg_dir (if started with
# scripts/postgres.sh start "$pg_dir") stopped, and both folders removed.
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
  local status=$?
  # A failed run keeps the server's log (its folder goes) and shows its end.
  if [ "$status" != 0 ] && [ -s "$work/serve.log" ]; then
    cp "$work/serve.log" "$work.serve.log"
    echo "the run failed (exit $status); the server's log is kept in $work.serve.log, its last lines:" >&2
    tail -n 20 "$work/serve.log" >&2
  fi
  for pid in ${server:-} ${pushers[@]:-} ${standin:-}; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/postgres.sh stop "$pg_dir" 2>/dev/null || true
  rm -rf "$work" "$pg_dir"
}

# serve_loyalty_on_postgres HTTP_PORT: a throwaway PostgreSQL on a free port and `passwright serve
# --push off` on HTTP_PORT with a copy of the loyalty sample template (in $work/templates, so a script
# can change it and push a new version). Sets pass_type, pg_url, sql (a function), server, admin and
# exports PASSWRIGHT_ADMIN_TOKEN and PASSWRIGHT_SERVER; the server logs to $work/serve.log.
serve_loyalty_on_postgres() {
  pass_type=pass.dev.passwright.loyalty
  $bin certs dev --out "$work/ids" --pass-type-id $pass_type >/dev/null
  pg_url=$(scripts/postgres.sh start "$pg_dir")
  sql() { psql -qAt -v ON_ERROR_STOP=1 "$pg_url" -c "$1"; }
  mkdir -p "$work/templates"
  cp -r Templates/loyalty "$work/templates/loyalty"
  export PASSWRIGHT_ADMIN_TOKEN=bench-admin-token-0123456789 PASSWRIGHT_SERVER=http://127.0.0.1:$1
  $bin serve --port "$1" --database "$pg_url" --templates "$work/templates" --identities "$work/ids" \
    --data-dir "$work/data" --public-url https://passes.example.test --push off --log-level info 2>"$work/serve.log" &
  server=$!
  for _ in $(seq 100); do curl -sf "$PASSWRIGHT_SERVER/healthz" >/dev/null && break; sleep 0.2; done
  admin=(-H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN")
}

# roll_out_new_version TIMEOUT_SECONDS: changes the loyalty template's "Points" label in
# $work/templates, uploads it with `passwright templates push`, and waits for the server's
# `template rolled out` log line, then checks once that no pass is behind. The wait follows the log
# from its size before the upload (`tail -F`, woken by inotify) and reads each appended line once:
# counting the line with a grep of the whole log every 0.2 s read the request logs of the measures
# before again and again, 6 % of the machine's CPU during a million-pass roll-out (`perf record -a`).
# Not polling passesBehind during the roll-out either: that count reads every pass of the template
# (0.2–0.39 s of PostgreSQL's CPU a poll at a million passes; Benchmarks/rollout-counts.sh).
# Sets wall (seconds from upload to the log line) and rss_peak (the server's VmHWM, MiB), and
# defines field NAME, which reads NAME from the server's last `template rolled out` log line.
roll_out_new_version() {
  sed -i 's/"label": "Points"/"label": "Stars"/' "$work/templates/loyalty/pass.json"
  local started behind follow follower logged
  logged=$(stat -c %s "$work/serve.log")
  exec {follow}< <(exec tail -c +$((logged + 1)) -F "$work/serve.log" 2>/dev/null)
  follower=$!
  started=$(date +%s.%N)
  $bin templates push "$work/templates/loyalty" >"$work/push.out" 2>"$work/push.err"
  if ! timeout "$1" grep -q -m 1 '"template rolled out"' <&"$follow"; then
    kill "$follower" 2>/dev/null || true
    echo "the roll-out did not finish within $1 s" >&2; exit 1
  fi
  wall=$(echo "$(date +%s.%N) - $started" | bc)
  kill "$follower" 2>/dev/null || true
  exec {follow}<&-
  behind=$(curl -sf "${admin[@]}" "$PASSWRIGHT_SERVER/api/v1/templates/loyalty" | python3 -c 'import json, sys; print(json.load(sys.stdin)["passesBehind"])')
  [ "$behind" = 0 ] || { echo "the server logged the roll-out's end with $behind passes still behind" >&2; exit 1; }
  field() { grep '"template rolled out"' "$work/serve.log" | tail -n 1 | python3 -c "import json, sys; print(json.loads(sys.stdin.read())['fields'].get('$1', '?'))"; }
  rss_peak=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server/status")
}

# signatures_per_second IDENTITIES PASS_TYPE: the machine's signing ceiling in the same run, one
# core, the server idle: CMS signatures a second from `passwright bench` (its last JSON line).
signatures_per_second() {
  $bin bench --identities "$1" --pass-type-id "$2" --seconds 3 |
    python3 -c 'import json, sys; print(json.loads(sys.stdin.readlines()[-1])["perSecond"])'
}

# The length of a clock tick in µs, and cpu_ticks PID...: the user and system clock ticks of the
# processes, summed ("USER SYSTEM"; a process gone counts 0).
tick_us=$((1000000 / $(getconf CLK_TCK)))
cpu_ticks() {
  local user=0 system=0 u s pid
  for pid in "$@"; do
    read -r u s < <(awk '{print $14, $15}' "/proc/$pid/stat" 2>/dev/null || echo "0 0")
    user=$((user + u)); system=$((system + s))
  done
  echo "$user $system"
}

# postgres_pids: the PostgreSQL in $pg_dir, its postmaster and every child alive now.
postgres_pids() {
  local postmaster
  postmaster=$(head -1 "$pg_dir/data/postmaster.pid")
  echo "$postmaster" $(pgrep -P "$postmaster")
}

# postgres_ticks: the CPU ticks of the PostgreSQL in $pg_dir so far, user and system summed, those of
# backends that have exited included (pgbench's connections end with its run; the postmaster's cutime
# and cstime hold what its reaped children spent). Read it half a second after a pgbench run ends.
postgres_ticks() {
  local postmaster reaped live
  postmaster=$(head -1 "$pg_dir/data/postmaster.pid")
  reaped=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$postmaster/stat")
  read -r -a live < <(cpu_ticks $(pgrep -P "$postmaster"))
  echo $((reaped + live[0] + live[1]))
}

# serve_bench_pass PORT DATABASE LOG [CPUS]: `passwright serve` on PORT (pinned to CPUS with taskset
# when given) with the loyalty sample template, one pass ($SERIAL with $TOKEN) and one device
# registered for it (bench-device); sets server. Needs $work/ids (`certs dev` for $PASS_TYPE) and
# $admin.
serve_bench_pass() {
  local pin=()
  [ -n "${4:-}" ] && pin=(taskset -c "$4")
  PASSWRIGHT_ADMIN_TOKEN=$admin "${pin[@]}" $bin serve --port "$1" --database "$2" --templates Templates \
    --identities "$work/ids" --data-dir "$work/data-$1-$RANDOM" --log-level error 2>"$3" &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && break; sleep 0.2; done
  curl -sf -X POST "http://127.0.0.1:$1/api/v1/passes" -H "Authorization: Bearer $admin" -H "Content-Type: application/json" \
    -d "{\"template\":\"loyalty\",\"serialNumber\":\"$SERIAL\",\"data\":{\"authenticationToken\":\"$TOKEN\",\"member\":{\"id\":\"M-1\",\"name\":\"Ada\"},\"points\":10,\"tier\":\"Gold\"}}" >/dev/null
  curl -sf -X POST "http://127.0.0.1:$1/wallet/v1/devices/bench-device/registrations/$PASS_TYPE/$SERIAL" \
    -H "Authorization: ApplePass $TOKEN" -d '{"pushToken":"00ff"}' >/dev/null
}
