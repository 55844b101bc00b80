#!/usr/bin/env bash
# Runs the unit tests under AddressSanitizer and ThreadSanitizer, each from its own build folder
# (.build-asan, .build-tsan), one `swift test` process per test target as scripts/test.sh does.
#
#   scripts/sanitize.sh                    # address: every target; thread: the concurrent ones
#   scripts/sanitize.sh thread             # one sanitizer
#   SANITIZE_THREAD_TARGETS="StorageTests APNsTests" scripts/sanitize.sh thread
#
# Under ThreadSanitizer code runs 5-15 times slower, so by default it runs the targets whose code
# shares state between threads: the HTTP server, the stores and their pools, the APNs client and the
# service with its push worker. Exits non-zero when any target fails or a sanitizer reports.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/test-postgres.sh

sanitizers=("$@")
[ "${#sanitizers[@]}" -gt 0 ] || sanitizers=(address thread)
all_targets=$(cd Tests && ls -d *Tests)
thread_targets=${SANITIZE_THREAD_TARGETS:-HTTPServerTests StorageTests WalletStoreTests APNsTests WalletServiceTests}

# A sanitizer report fails the process. LeakSanitizer stays off: it cannot follow Swift references kept
# in enum spare bits and reports objects held by globals (XCTest's own among them) as leaked at exit.
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
export SWIFT_BACKTRACE=enable=no  # let the sanitizer print its own report

failed=()
summary=()
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address) targets=$all_targets; scratch=.build-asan ;;
    thread) targets=$thread_targets; scratch=.build-tsan ;;
    *) echo "sanitize: unknown sanitizer $sanitizer (address or thread)" >&2; exit 2 ;;
  esac
  echo "sanitize: building the tests with --sanitize=$sanitizer in $scratch" >&2
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
  for target in $targets; do
    started=$SECONDS
    if swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "^$target\\."; then
      result=ok
    else
      result=FAILED
      failed+=("$sanitizer/$target")
    fi
    summary+=("| $sanitizer | $target | $result | $((SECONDS - started)) s |")
  done
done
echo "| sanitizer | target | result | time |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
[ "${#failed[@]}" -eq 0 ] || { echo "sanitize: failed: ${failed[*]}" >&2; exit 1; }
