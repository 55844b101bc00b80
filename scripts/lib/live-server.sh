# Sourced by the scripts that test a live server (hostile.sh, schemathesis.sh):
#
#   start_live_server NAME [SERVE OPTIONS...]
#
# uses $PASSWRIGHT_BIN (or builds the debug binary), makes development identities for every sample
# template, picks a free port, puts a random admin token and download-link key in the environment
# (never on a command line), starts `passwright serve --push off` on SQLite in a throwaway folder and
# waits for /healthz. It sets `bin`, `work` (the throwaway folder; the log is $work/server.log), `base`
# (http://127.0.0.1:PORT) and `server_pid`; the folder goes and the server stops when the script exits.
# `stop_live_server` stops it with SIGTERM and returns its exit status.

start_live_server() {
  local name=$1
  shift
  if [ -z "${PASSWRIGHT_BIN:-}" ]; then
    swift build --product passwright >&2
    PASSWRIGHT_BIN=.build/debug/passwright
  fi
  bin=$PASSWRIGHT_BIN
  work=$(mktemp -d "/tmp/passwright-$name.XXXXXX")
  server_pid=
  trap stop_and_clean_live_server EXIT

  for template in Templates/*/pass.json; do
    "$bin" certs dev --out "$work/identities" --team-id PASSWRIGHT \
      --pass-type-id "pass.dev.passwright.$(basename "$(dirname "$template")")" >/dev/null
  done
  for order in Templates/orders/*/order.json; do
    [ -f "$order" ] || continue
    "$bin" certs dev --out "$work/identities" --team-id PASSWRIGHT \
      --order-type-id "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["orderTypeIdentifier"])' "$order")" >/dev/null
  done

  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  base="http://127.0.0.1:$port"
  PASSWRIGHT_ADMIN_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
  PASSWRIGHT_LINK_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
  export PASSWRIGHT_ADMIN_TOKEN PASSWRIGHT_LINK_KEY
  "$bin" serve --hostname 127.0.0.1 --port "$port" --templates Templates --identities "$work/identities" \
    --data-dir "$work/data" --push off --quiet-hours off --notification-spacing 0 "$@" 2>"$work/server.log" &
  server_pid=$!

  for _ in $(seq 1 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/server.log" >&2
  echo "$name: the server did not start" >&2
  exit 1
}

stop_live_server() {
  local status=0
  kill -TERM "$server_pid"
  wait "$server_pid" || status=$?
  server_pid=
  return "$status"
}

stop_and_clean_live_server() {
  if [ -n "${server_pid:-}" ] && kill -0 "$server_pid" 2>/dev/null; then
    stop_live_server || true
  fi
  rm -rf "$work"
}
