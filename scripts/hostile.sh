#!/usr/bin/env bash
# Hostile-input suite against a live server: builds Passwright (debug) unless PASSWRIGHT_BIN is set,
# makes development identities for the sample templates, starts `passwright serve --push off` on SQLite
# in a throwaway data folder with a random admin token and link key, issues two passes (A and B, each
# with its own Wallet token), registers a device for A, creates an order, and runs Tests/Hostile/hostile.py against it:
# oversized and endless bodies, slow clients, invalid UTF-8, deep JSON, duplicate headers, path
# traversal, forged links, cross-pass tokens, admin auth, SQL metacharacters and protocol oddities.
# Every case asserts an exact status and that /healthz still answers; the server's RSS must stay flat.
#
#   scripts/hostile.sh                 # 5 rounds
#   scripts/hostile.sh --rounds 2      # extra arguments go to hostile.py (--rounds N, --only SUBSTRING)
#   PASSWRIGHT_BIN=.build/debug/passwright scripts/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/live-server.sh
start_live_server hostile --log-level info

pass_type=pass.dev.passwright.loyalty
issue() {  # issue SERIAL TOKEN -> the issue response (JSON)
  curl -fsS -X POST "$base/api/v1/passes" \
    -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" -H "Content-Type: application/json" \
    -d "{\"template\": \"loyalty\", \"serialNumber\": \"$1\", \"data\": {\"member\": {\"id\": \"M-1\", \"name\": \"Ada Okafor\"}, \"points\": 1280, \"tier\": \"Gold\", \"authenticationToken\": \"$2\"}}"
}
token() { python3 -c 'import secrets; print(secrets.token_hex(16))'; }
HOSTILE_PASS_TYPE=$pass_type
HOSTILE_SERIAL_A=HOSTILE-A-0001
HOSTILE_SERIAL_B=HOSTILE-B-0002
HOSTILE_TOKEN_A=$(token)
HOSTILE_TOKEN_B=$(token)
HOSTILE_DEVICE_A=hostiledevice$(token)
issued_a=$(issue "$HOSTILE_SERIAL_A" "$HOSTILE_TOKEN_A")
issue "$HOSTILE_SERIAL_B" "$HOSTILE_TOKEN_B" >/dev/null
curl -fsS -o /dev/null -X POST "$base/wallet/v1/devices/$HOSTILE_DEVICE_A/registrations/$pass_type/$HOSTILE_SERIAL_A" \
  -H "Authorization: ApplePass $HOSTILE_TOKEN_A" -H "Content-Type: application/json" -d '{"pushToken": "00ff00ff"}'
HOSTILE_DOWNLOAD_A=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["downloadURL"])' <<<"$issued_a")
# An order (the sample shop template) for the Orders web service's and the orders API's routes.
HOSTILE_ORDER_TYPE=order.dev.passwright.shop
HOSTILE_ORDER_ID=HOSTILE-O-0001
HOSTILE_ORDER_TOKEN=$(curl -fsS -X POST "$base/api/v1/orders" \
  -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" -H "Content-Type: application/json" \
  -d "{\"template\": \"shop\", \"orderIdentifier\": \"$HOSTILE_ORDER_ID\"}" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["authenticationToken"])')

export HOSTILE_BASE=$base HOSTILE_PID=$server_pid HOSTILE_DATABASE=$work/data/passwright.sqlite
export HOSTILE_PASS_TYPE HOSTILE_SERIAL_A HOSTILE_SERIAL_B HOSTILE_TOKEN_A HOSTILE_TOKEN_B HOSTILE_DEVICE_A HOSTILE_DOWNLOAD_A
export HOSTILE_ORDER_TYPE HOSTILE_ORDER_ID HOSTILE_ORDER_TOKEN
status=0
python3 Tests/Hostile/hostile.py "$@" || status=$?

if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "hostile: the server died during the run; its log:" >&2
  tail -50 "$work/server.log" >&2
  exit 1
fi
# A graceful stop must find nothing in flight: every hostile request was answered or released.
server_exit=0
stop_live_server || server_exit=$?
if [ "$server_exit" -ne 0 ]; then
  echo "hostile: the server exited with $server_exit on SIGTERM" >&2
  status=1
fi
if grep -q 'still in flight' "$work/server.log"; then
  echo "hostile: requests were still in flight at shutdown (a hostile request was never completed)" >&2
  status=1
fi
if grep -q 'request failed\|handler failed' "$work/server.log"; then
  echo "hostile: the server logged failed requests:" >&2
  grep 'request failed\|handler failed' "$work/server.log" | sort | uniq -c | sort -rn | head -20 >&2
  status=1
fi
# Every request was logged (info level); none of the secrets it carried may appear in the log.
for secret in "$PASSWRIGHT_ADMIN_TOKEN" "$PASSWRIGHT_LINK_KEY" "$HOSTILE_TOKEN_A" "$HOSTILE_TOKEN_B" "$HOSTILE_DEVICE_A"; do
  if grep -qF -- "$secret" "$work/server.log"; then
    echo "hostile: a secret (${secret:0:4}…) appears in the server log" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "hostile: server stopped cleanly on SIGTERM, nothing in flight, no secret in $(wc -l <"$work/server.log") log lines"
exit "$status"
