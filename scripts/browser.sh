#!/usr/bin/env bash
# Browser tests of the web console (/console, issue #13) with Debian's Chromium and chromedriver:
# builds Passwright (debug) unless PASSWRIGHT_BIN is set, starts `passwright serve` with development
# identities and a random admin token (scripts/lib/live-server.sh) but with push ON, against the APNs
# stand-in (Tests/Support/apns-standin) on 127.0.0.1, so a save in the console sends a real push; then
# runs Tests/Browser/console_test.py (selenium, headless Chromium at 1280x900 and 320 px wide).
# The base URL, admin token and stand-in record reach the tests in the environment, never on a command
# line. A screenshot of every page visited goes to $BROWSER_ARTEFACTS (default .build/browser-artefacts/).
# After the tests the server must still be up, stop cleanly on SIGTERM and have logged no admin token.
# Prints one line per test and, last, `N passed, M failed`; exits non-zero on any failure.
#
#   scripts/browser.sh
#   scripts/browser.sh --only sign_in          # extra arguments go to console_test.py (--only SUBSTRING)
#   BROWSER_ARTEFACTS=/tmp/shots BROWSER_TIMEOUT=900 PASSWRIGHT_BIN=.build/debug/passwright scripts/browser.sh
#
# Needs chromium, chromium-driver and python3-selenium (Debian; scripts/setup.sh installs them) and h2
# for the stand-in (pip install h2).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$tool" ] || { echo "browser: $tool is missing: apt-get install chromium chromium-driver" >&2; exit 2; }
done
# Debian's python3-selenium lives in /usr/bin/python3; a python3 earlier on the PATH may lack it.
python_with() {  # python_with MODULE: the first python3 that can import MODULE
  local candidate
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import $1" 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
}
selenium_python=$(python_with selenium)
[ -n "$selenium_python" ] || { echo "browser: no python3 with selenium: apt-get install python3-selenium" >&2; exit 2; }
standin_python=$(python_with h2)
[ -n "$standin_python" ] || { echo "browser: the APNs stand-in needs h2: pip install h2" >&2; exit 2; }
# axe-core, which the accessibility tests run in every page: the copy the axe-selenium-python package bundles.
axe_python=$(python_with axe_selenium_python)
[ -n "$axe_python" ] || { echo "browser: the accessibility tests need axe-core: pip install --no-deps axe-selenium-python (scripts/setup.sh does)" >&2; exit 2; }
axe_js=$("$axe_python" -c 'import axe_selenium_python, os; print(os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js"))')
[ -f "$axe_js" ] || { echo "browser: axe-selenium-python carries no axe.min.js at $axe_js" >&2; exit 2; }

# zxing-cpp and Pillow decode the holder page's QR code, independently of the code that drew it.
zxing_python=$(python_with "zxingcpp, PIL")
[ -n "$zxing_python" ] || { echo "browser: the holder page test needs zxing-cpp and pillow: pip install zxing-cpp pillow (scripts/setup.sh does)" >&2; exit 2; }

artefacts=${BROWSER_ARTEFACTS:-.build/browser-artefacts}
mkdir -p "$artefacts"
artefacts=$(cd "$artefacts" && pwd)
rm -f "$artefacts"/*.png "$artefacts"/*.html  # no screenshot of an earlier run passes for this one's

# The stand-in's folder: its TLS certificate (from a throwaway CA the server is told to trust), its
# record of every request, and Chromium's profile (so cleanup can find a browser the tests left behind).
aux=$(mktemp -d /tmp/passwright-browser-aux.XXXXXX)
standin_pid=
test_pid=
closing_printed=false

stop_browser_run() {
  if [ -n "$test_pid" ] && kill -0 "$test_pid" 2>/dev/null; then
    kill -TERM "$test_pid" 2>/dev/null || true
    wait "$test_pid" 2>/dev/null || true
  fi
  # A chromedriver or Chromium the tests could not quit: only processes using this run's profile.
  local leftover
  for leftover in $(pgrep -f -- "$aux/chrome-profile" 2>/dev/null || true); do
    kill -KILL "$leftover" 2>/dev/null || true
  done
  if [ -n "$standin_pid" ] && kill -0 "$standin_pid" 2>/dev/null; then
    kill -TERM "$standin_pid" 2>/dev/null || true
    wait "$standin_pid" 2>/dev/null || true
  fi
  rm -rf "$aux"
}

source scripts/lib/live-server.sh
# live-server.sh's EXIT trap calls stop_and_clean_live_server (also when the server fails to start and
# it exits); wrap that function so the same trap stops the stand-in and the browser and removes $aux.
eval "live_server_cleanup() $(declare -f stop_and_clean_live_server | tail -n +2)"
stop_and_clean_live_server() {
  stop_browser_run
  live_server_cleanup
  # Set-up failed (no server, no stand-in): still end with the closing line.
  $closing_printed || { echo "FAIL setup: the server or the APNs stand-in did not start (see above)"; echo "0 passed, 1 failed"; }
}
trap stop_and_clean_live_server EXIT

# The stand-in's server certificate, from a throwaway CA made here; keys stay in 0600 files.
(umask 077 && openssl req -x509 -newkey rsa:2048 -nodes -keyout "$aux/ca-key.pem" -out "$aux/ca.pem" -days 1 \
  -subj "/CN=Passwright browser test APNs CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null)
(umask 077 && openssl req -new -newkey rsa:2048 -nodes -keyout "$aux/standin-key.pem" -subj "/CN=localhost" \
  -out "$aux/standin.csr" 2>/dev/null)
printf 'basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$aux/standin.ext"
openssl x509 -req -in "$aux/standin.csr" -CA "$aux/ca.pem" -CAkey "$aux/ca-key.pem" \
  -set_serial "0x$(openssl rand -hex 16)" -days 1 -extfile "$aux/standin.ext" -out "$aux/standin.pem" 2>/dev/null

# The stand-in checks the server's client certificate against the dev root that start_live_server makes,
# so it starts after the server, on a port chosen now (the server only connects when a push is due).
apns_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
start_live_server browser --log-level info \
  --push on --apns-url "https://127.0.0.1:$apns_port" --apns-ca-file "$aux/ca.pem"

"$standin_python" -u Tests/Support/apns-standin/apns_standin.py --ca "$work/identities/dev-ca/root.pem" \
  --cert "$aux/standin.pem" --key "$aux/standin-key.pem" --record "$aux/apns-requests.jsonl" --port "$apns_port" \
  >"$aux/standin.out" 2>"$aux/standin.log" &
standin_pid=$!
for _ in $(seq 1 100); do
  grep -q '^PORT ' "$aux/standin.out" 2>/dev/null && break
  kill -0 "$standin_pid" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q "^PORT $apns_port\$" "$aux/standin.out" 2>/dev/null; then
  cat "$aux/standin.log" >&2
  echo "browser: the APNs stand-in did not start on port $apns_port" >&2
  exit 1
fi

export BROWSER_BASE=$base BROWSER_ARTEFACTS=$artefacts BROWSER_APNS_RECORD=$aux/apns-requests.jsonl
export BROWSER_PROFILE=$aux/chrome-profile BROWSER_SERVER_LOG=$work/server.log BROWSER_AXE_JS=$axe_js
export BROWSER_ZXING_PYTHON=$zxing_python BROWSER_BIN=$bin BROWSER_DEV_CA=$work/identities/dev-ca/root.pem
# PASSWRIGHT_ADMIN_TOKEN is exported by start_live_server.

# The tests print `PASS name`, `FAIL name: reason` and, last, their own `N passed, M failed`; that line
# is held back here and added to the checks below, so the run ends with one closing line.
passed=0
failed=0
summary_seen=false
test_status=0
: >"$aux/test.out"
timeout --kill-after=15 "${BROWSER_TIMEOUT:-600}" "$selenium_python" -u Tests/Browser/console_test.py "$@" >"$aux/test.out" 2>&1 &
test_pid=$!
tail -n +1 --pid="$test_pid" -f "$aux/test.out" | grep --line-buffered -Ev '^[0-9]+ passed, [0-9]+ failed$' || true
wait "$test_pid" || test_status=$?
test_pid=
if summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$aux/test.out" | tail -1) && [ -n "$summary" ]; then
  summary_seen=true
  read -r passed _ failed _ <<<"$summary"
fi
if [ "$test_status" -eq 124 ] || [ "$test_status" -eq 137 ]; then
  echo "FAIL run: console_test.py did not finish within ${BROWSER_TIMEOUT:-600} s (BROWSER_TIMEOUT)"
  failed=$((failed + 1))
elif ! $summary_seen; then
  echo "FAIL run: console_test.py ended (exit $test_status) without a result"
  failed=$((failed + 1))
elif [ "$test_status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "FAIL run: console_test.py exited $test_status though every test passed"
  failed=$((failed + 1))
fi

check() {  # check NAME REASON-IF-FAILED COMMAND...
  local name=$1 reason=$2
  shift 2
  if "$@"; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name: $reason"
    failed=$((failed + 1))
  fi
}
server_alive() { kill -0 "$server_pid" 2>/dev/null; }
no_admin_token_in_log() { ! grep -qF -- "$PASSWRIGHT_ADMIN_TOKEN" "$work/server.log"; }
no_failed_requests() { ! grep -q 'request failed\|handler failed' "$work/server.log"; }
stops_cleanly() { [ -n "$server_pid" ] && stop_live_server; }

check server_survived "the server died during the run (log: tail below)" server_alive
check server_log_has_no_admin_token "the admin token appears in the server log" no_admin_token_in_log
check server_logged_no_failed_request "the server logged failed requests: $(grep -c 'request failed\|handler failed' "$work/server.log" || true) lines" no_failed_requests
check server_stops_cleanly "the server did not exit 0 on SIGTERM" stops_cleanly
if [ "$failed" -gt 0 ]; then
  echo "browser: last server log lines:" >&2
  tail -20 "$work/server.log" >&2
  echo "browser: screenshots and page sources in $artefacts" >&2
fi
echo "$passed passed, $failed failed"
closing_printed=true
[ "$failed" -eq 0 ]
