#!/usr/bin/env bash
# Builds and runs the unit tests, one `swift test` process per test target, plain or under a sanitizer,
# each sanitizer from its own build folder so that switching does not rebuild the others.
#
#   scripts/unit-tests.sh                    # plain, in .build
#   scripts/unit-tests.sh address            # AddressSanitizer, in .build-asan
#   scripts/unit-tests.sh thread             # ThreadSanitizer, in .build-tsan
#   UNIT_TEST_TARGETS="StorageTests APNsTests" scripts/unit-tests.sh thread
#
# One process per target: the in-process HTTP servers of some suites need the cooperative thread
# pool, which the CPU-heavy suites of others (RSA key generation, 10,000-pass batches) would otherwise
# keep busy on a 2-core machine. Needs PASSWRIGHT_TEST_POSTGRES_URL (scripts/test.sh sets it) or
# starts a throwaway PostgreSQL. Exits non-zero when a target fails or a sanitizer reports.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/test-postgres.sh

mode=${1:-plain}
case "$mode" in
  plain) scratch=.build; options=() ;;
  address) scratch=.build-asan; options=(--sanitize=address --scratch-path "$scratch") ;;
  thread) scratch=.build-tsan; options=(--sanitize=thread --scratch-path "$scratch") ;;
  *) echo "unit-tests: the mode is plain, address or thread, not '$mode'" >&2; exit 64 ;;
esac
all_targets=$(cd Tests && ls -d *Tests)
# ThreadSanitizer finds races in code that shares state between threads. These suites test libraries
# that share none (no lock, actor, task group or queue in PassCompiler, PassLint, Signing, PassModel, the
# three order libraries (OrderModel, OrderPackage, OrderPreview) and
# ImageProcessing, whose libvips threads TSan cannot see), so `thread` leaves them to `address`; they
# cost 200 s of the CI run under TSan (ImageProcessingTests alone 125 s) and could show nothing.
# A library that gains shared state leaves this list. UNIT_TEST_TARGETS overrides it.
unshared="PassCompilerTests PassLintTests SigningTests PassModelTests ImageProcessingTests OrderModelTests OrderPackageTests OrderPreviewTests"
for target in $unshared; do
  library=Sources/${target%Tests}
  if grep -rqE '\b(TaskGroup|withTaskGroup|Mutex|Locked|actor|DispatchQueue|Thread)\b|Task *\{|Task\.detached' "$library"; then
    echo "unit-tests: $library now has shared state (a lock, actor, task or queue): take $target out of 'unshared' in $0 so ThreadSanitizer runs it" >&2
    exit 1
  fi
done
if [ "$mode" = thread ]; then
  default_targets=$(for target in $all_targets; do [[ " $unshared " == *" $target "* ]] || echo "$target"; done)
else
  default_targets=$all_targets
fi
targets=${UNIT_TEST_TARGETS:-$default_targets}

# A sanitizer report fails the process. LeakSanitizer stays off: it cannot follow Swift references kept
# in enum spare bits and reports objects held by globals (XCTest's own among them) as leaked at exit.
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
[ "$mode" = plain ] || export SWIFT_BACKTRACE=enable=no  # let the sanitizer print its own report
# The CLI and serve tests run the binary of the same build, so it is checked by the same sanitizer.
export PASSWRIGHT_BINARY=$PWD/$scratch/debug/passwright
# Suites whose work is all in the database engine (a million-row plan test) skip themselves under
# ThreadSanitizer, which can see no race there and would only slow them down.
export PASSWRIGHT_TEST_MODE=$mode
# Swift Testing starts every test case of a process at once. Under a sanitizer each case runs 5–15
# times slower, so with all of WalletHTTPTests' cases sharing 2 cores a case's time limit (2 minutes)
# measured the whole target's work rather than its own: CI's thread stage failed three times on
# PostgreSQL cases that take 2–4 s on their own (ConsoleOrdersTests: 4 s for both engines). Three cases per core keep the cores full and the
# limits meaningful (the target's 188 s under TSan did not grow); SWT_EXPERIMENTAL_… overrides it.
if [ "$mode" != plain ]; then
  export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(($(nproc) * 3))}
fi

echo "unit-tests: building ($mode)" >&2
# A build prints no warning of ours (code, tests or manifest): one that appears fails the stage here,
# where CI builds everything from a clean checkout, instead of scrolling past unread. Ours are the
# compiler's about files in this package and SwiftPM's own (`warning: …` about the manifest or a
# pkg-config flag); the toolchain's linker notes about the sanitizer runtime are not.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
swift build --build-tests "${options[@]}" 2>&1 | tee "$build_log"
ours="^(warning: |$PWD/[^ ]*: warning: )"
if grep -qE "$ours" "$build_log"; then
  echo "unit-tests: the build printed warnings ($mode); fix them:" >&2
  grep -E "$ours" "$build_log" | sort -u >&2
  exit 1
fi
failed=()
summary=()
for target in $targets; do
  echo "unit-tests: $target ($mode)" >&2
  started=$SECONDS
  if swift test --skip-build "${options[@]}" --filter "^$target\\."; then result=ok; else result=FAILED; failed+=("$target"); fi
  summary+=("| $mode | $target | $result | $((SECONDS - started)) s |")
done
echo "| mode | target | result | time |"
echo "|---|---|---|---|"
printf '%s\n' "${summary[@]}"
[ "${#failed[@]}" -eq 0 ] || { echo "unit-tests: failed ($mode): ${failed[*]}" >&2; exit 1; }
