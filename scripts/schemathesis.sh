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

source scripts/lib/live-server.sh
start_live_server schemathesis --log-level warning

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
# Template uploads are zip archives: the hooks tell schemathesis how to make such bodies.
hooks=$PWD/scripts/lib
(cd "$work" && PYTHONPATH="$hooks${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks schemathesis --config-file "$work/schemathesis.toml" run "$base/openapi.json" \
  --header "Authorization: Bearer $PASSWRIGHT_ADMIN_TOKEN" \
  --checks "${SCHEMATHESIS_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}" \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-30}" --no-color --output-sanitize true "$@") || status=$?

if grep -q 'request failed' "$work/server.log"; then
  echo "schemathesis: the server logged failed requests:" >&2
  grep 'request failed' "$work/server.log" | sort | uniq -c | sort -rn | head -20 >&2
fi
exit "$status"
