#!/usr/bin/env bash
# Sets up everything the tests need and runs them all; `.ci/run` calls this. Installs the Debian and
# Python packages, starts a throwaway PostgreSQL on 127.0.0.1 (stopped again on exit), then runs:
#
#   unit         the unit tests (one `swift test` process per target), under AddressSanitizer
#   thread       the unit tests again, under ThreadSanitizer
#   hostile      49 hostile-input cases x 5 rounds against a live server (scripts/hostile.sh)
#   openapi      schemathesis against /openapi.json (scripts/schemathesis.sh)
#   browser      the web console in headless Chromium, push on against the APNs stand-in (scripts/browser.sh)
#   soak         the 90/10 Wallet mix with wrk on SQLite and PostgreSQL, a template-wide change and a
#                roll-out half-way (Benchmarks/soak.sh)
#   crash        SIGKILL rounds under write load, nothing acknowledged lost (scripts/crash.sh)
#   outage       PostgreSQL stopped under write load (503 + Retry-After, back by itself, nothing
#                acknowledged lost) and a full SQLite volume (507, readyz, recovery) (scripts/outage.sh)
#   fuzz         every libFuzzer target for a fixed time (scripts/fuzz.sh)
#   container    the image built from this checkout and run as a user would: health, a pass issued,
#                verified and drawn, the console, a roll-out by the release build, SIGTERM, compose with
#                PostgreSQL (scripts/container-check.sh)
#
# and prints one line per stage. Exits non-zero if any stage failed; later stages still run.
#
#   scripts/test.sh                        # everything, CI lengths (about 35 minutes on 2 cores)
#   scripts/test.sh unit thread            # some stages
#   scripts/test.sh --plain                # the unit tests without a sanitizer (the quick local loop)
#   scripts/test.sh --plain --filter Signing   # extra arguments go to `swift test`
#   FUZZ_SECONDS=1800 SOAK_SECONDS=300 CRASH_ROUNDS=200 scripts/test.sh   # the long runs
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
source scripts/lib/test-postgres.sh

if [ "${1:-}" = --plain ]; then
  shift
  if [ "$#" -gt 0 ]; then
    swift build --build-tests
    swift test --skip-build "$@"  # not exec: the EXIT trap stops PostgreSQL
  else
    scripts/unit-tests.sh plain
  fi
  exit
fi

stages=("$@")
[ "${#stages[@]}" -gt 0 ] || stages=(unit thread hostile openapi browser soak crash outage fuzz container)

# The scripts drive the plain debug binary: sanitizer builds change its memory figures and timings.
binary() {
  swift build --product passwright >&2
  export PASSWRIGHT_BIN=$PWD/.build/debug/passwright
}

run_stage() {
  case "$1" in
    unit) scripts/unit-tests.sh address ;;
    thread) scripts/unit-tests.sh thread ;;
    hostile) binary && scripts/hostile.sh ;;
    openapi) binary && scripts/schemathesis.sh ;;
    browser) binary && scripts/browser.sh ;;
    soak) binary && Benchmarks/soak.sh --seconds "${SOAK_SECONDS:-30}" ;;
    crash) binary && scripts/crash.sh --rounds "${CRASH_ROUNDS:-20}" ;;
    outage) binary && scripts/outage.sh ;;
    fuzz) binary && scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-30}" ;;
    container) scripts/container-check.sh ;;
    *) echo "test: no stage '$1' (stages: unit thread hostile openapi browser soak crash outage fuzz container)" >&2; return 2 ;;
  esac
}

summary=()
failed=0
for stage in "${stages[@]}"; do
  echo "test: ===== $stage =====" >&2
  started=$SECONDS
  if run_stage "$stage"; then result=passed; else result=FAILED; failed=$((failed + 1)); fi
  summary+=("test: $stage $result in $((SECONDS - started)) s")
done
printf '%s\n' "${summary[@]}"
echo "stages: $((${#stages[@]} - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
