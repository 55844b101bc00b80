#!/usr/bin/env bash
# Checks the web service against its own OpenAPI document with schemathesis: builds Passwright,
# makes development identities for the sample templates, starts `passwright serve` on a free port
# with a throwaway data folder, issues one known pass (so some generated requests hit real data),
# and runs `schemathesis run` on /openapi.json. Exits non-zero when schemathesis finds a failure.
#
#   scripts/schemathesis.sh                  # 30 examples per operation
#   SCHEMATHESIS_MAX_EXAMPLES=100 scripts/schemathesis.sh --seed 1   # extra arguments go to schemathesis
#
# Needs `pip install schemathesis` (4.x; scripts/setup.sh installs it). PASSWRIGHT_BIN=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v schemathesis >/dev/null || { echo "schemathesis: install it with 'pip install schemathesis'" >&2; exit 2; }

if [ -z "${PASSWRIGHT_BIN:-}" ]; then
  swift build --product passwright
  PASSWRIGHT_BIN=.build/debug/passwright
fi
bin=$PASSWRIGHT_BIN

work=$(mktemp -d /tmp/passwright-schemathesis.XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

for name in loyalty concert boarding coupon membership poster-event; do
  $bin certs dev --out "$work/identities" --pass-type-id "pass.dev.passwright.$name" --team-id PASSWRIGHT >/dev/null
done

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
PASSWRIGHT_ADMIN_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
export PASSWRIGHT_ADMIN_TOKEN
$bin serve --hostname 127.0.0.1 --port "$port" --templates Templates --identities "$work/identities" \
  --data-dir "$work/data" --push off --log-level warning 2>"$work/server.log" &
server_pid=$!

for _ in $(seq 1 100); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "schemathesis: the server did not start" >&2; exit 1; }
  sleep 0.1
done

# One real pass whose identifiers and Wallet token the generated requests may use.
pass_type=pass.dev.passwright.loyalty
serial=SCHEMA-0001
pass_token=schemathesis-pass-token-0001
issued=$(curl -fsS -X POST "$base/api/v1/passes" \
  -H "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" -H "Content-Type: application/json" \
  -d "{\"template\": \"loyalty\", \"serialNumber\": \"$serial\", \"data\": {\"member\": {\"id\": \"M-1\", \"name\": \"Ada Okafor\"}, \"points\": 1280, \"tier\": \"Gold\", \"authenticationToken\": \"$pass_token\"}}")
# Its signed download link's query, so GET /passes/… can get past the signature check.
read -r expires signature < <(python3 -c 'import json, sys, urllib.parse as u
q = u.parse_qs(u.urlparse(json.load(sys.stdin)["downloadURL"]).query)
print(q["expires"][0], q["signature"][0])' <<<"$issued")

# Half of the generated path and link values are the real pass's, so handlers get past "not found".
cat >"$work/schemathesis.toml" <<TOML
[dictionaries.pass-types]
values = ["$pass_type"]
[dictionaries.serials]
values = ["$serial"]
[dictionaries.expires]
values = ["$expires"]
[dictionaries.signatures]
values = ["$signature"]
[dictionaries.templates]
values = ["loyalty", "concert", "boarding", "coupon", "membership", "poster-event"]

[parameters]
"path.passTypeIdentifier" = { dictionary = "pass-types", probability = 0.5 }
"path.serialNumber" = { dictionary = "serials", probability = 0.5 }
"path.template" = { dictionary = "templates", probability = 0.5 }
"query.expires" = { dictionary = "expires", probability = 0.5 }
"query.signature" = { dictionary = "signatures", probability = 0.5 }

# Wallet protocol calls carry the pass's own token instead of the admin one.
[[operations]]
include-operation-id = ["latestPass", "registerDevice", "unregisterDevice"]
headers = { Authorization = "ApplePass $pass_token" }
TOML

# Run from the throwaway folder so schemathesis's own cache (.schemathesis/) stays out of the repository;
# give report paths (--report-dir) as absolute paths.
status=0
(cd "$work" && schemathesis --config-file "$work/schemathesis.toml" run "$base/openapi.json" \
  --header "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" \
  --checks "${SCHEMATHESIS_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}" \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-30}" --no-color --output-sanitize true "$@") || status=$?

if grep -q 'request failed' "$work/server.log"; then
  echo "schemathesis: the server logged failed requests:" >&2
  grep 'request failed' "$work/server.log" | sort | uniq -c | sort -rn | head -20 >&2
fi
exit "$status"
