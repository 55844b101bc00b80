#!/usr/bin/env bash
# Builds Passwright's libFuzzer targets (Fuzz/, every module instrumented with -sanitize=fuzzer,address),
# replays the saved regression inputs, then fuzzes each target for a fixed time from a seed corpus
# derived from the sample templates and passes. Prints executions per target; exits non-zero on a crash,
# leak, timeout or failed assertion, leaving the input under Fuzz/.build/artifacts/<Target>/.
#
#   scripts/fuzz.sh                          # every target, 60 s each
#   scripts/fuzz.sh --seconds 600 FuzzHTTPRequest   # one target, longer
#   scripts/fuzz.sh --jobs 2 --seconds 3600  # long runs: libFuzzer workers per target
#   scripts/fuzz.sh --parallel 1             # one target at a time (default: one per core)
#
# The working corpus (Fuzz/.build/corpus/<Target>) is kept between runs, so longer runs build on
# earlier ones. A crash input worth keeping goes into Fuzz/Regressions/<Target>/ with a unit test
# that reproduces it (see Fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=1
parallel=$(nproc)
targets=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(FuzzPassJSON FuzzOrderJSON FuzzPassStrings FuzzTemplateRender FuzzPkpass FuzzPreview FuzzHTTPRequest)
[ "${#targets[@]}" -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] || { echo "fuzz: no target $target (targets: ${all[*]})" >&2; exit 2; }
done

if [ -z "${PASSWRIGHT_BIN:-}" ]; then
  swift build --product passwright >&2
  PASSWRIGHT_BIN=.build/debug/passwright
fi
echo "fuzz: building the fuzz targets (-sanitize=fuzzer,address)" >&2
swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 \
  | grep -v "Cannot export local symbol" >&2
bin=Fuzz/.build/debug

work=$(mktemp -d /tmp/passwright-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Sample passes for the seeds: the decoders start from real archives, pass.json and pass.strings.
for template in Templates/*/pass.json; do
  name=$(basename "$(dirname "$template")")
  "$PASSWRIGHT_BIN" certs dev --out "$work/identities" --pass-type-id "pass.dev.passwright.$name" --team-id PASSWRIGHT >/dev/null
  "$PASSWRIGHT_BIN" build "Templates/$name" --data "Templates/samples/$name.json" --identities "$work/identities" \
    --out "$work/passes/$name.pkpass" >/dev/null
done
Fuzz/seed-corpus.py Fuzz/.build/corpus "$work/passes"

# Swift's own backtracer would catch the crash signals first; libFuzzer must see them to save the input.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer is off: it cannot see Swift references kept in enum spare bits, so objects that live
# in globals are reported as leaked at exit. Growth is caught by -rss_limit_mb and -malloc_limit_mb.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
# One target: replays its regressions, fuzzes it, writes its table row to $work/<target>.row.
fuzz_target() {  # TARGET
  local target=$1 artifacts=$root/Fuzz/.build/artifacts/$1 corpus=$root/Fuzz/.build/corpus/$1
  local log=$work/$1.log result=ok status=0 executions options regressions
  mkdir -p "$artifacts" "$work/$target"
  regressions=(Fuzz/Regressions/"$target"/*)
  if [ -e "${regressions[0]}" ] && ! "$bin/$target" -runs=1 "${regressions[@]}" >"$log.regressions" 2>&1; then
    tail -40 "$log.regressions" >&2
    result="regression input fails"
  fi
  if [ "$result" = ok ]; then
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -detect_leaks=0
      -print_final_stats=1 -artifact_prefix="$artifacts/")
    # With -jobs, libFuzzer runs workers that write fuzz-N.log into the current folder: the work folder.
    [ "$jobs" -gt 1 ] && options+=(-jobs="$jobs" -workers="$jobs")
    (cd "$work/$target" && "$root/$bin/$target" "$corpus" "${options[@]}") >"$log" 2>&1 || status=$?
    cat "$work/$target"/fuzz-*.log >>"$log" 2>/dev/null || true
    if [ "$status" -ne 0 ]; then
      grep -v '^#' "$log" | tail -40 >&2
      result="FAILED, input in $artifacts/"
    fi
  fi
  executions=$(awk -F: '/stat::number_of_executed_units/ {sum += $NF} END {print sum + 0}' "$log")
  echo "| $target | $seconds | $executions | $((executions / seconds)) | $(find "$corpus" -type f | wc -l) | $result |" >"$work/$target.row"
}

root=$PWD
# libFuzzer fuzzes on one core: targets run side by side, as many at a time as --parallel says.
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_target "$target" &
  running=$((running + 1))
done
wait
failed=0
echo "| target | seconds | executions | executions/s | corpus | result |"
echo "|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
  row=$(cat "$work/$target.row" 2>/dev/null || echo "| $target | $seconds | 0 | 0 | 0 | FAILED, no result |")
  echo "$row"
  [[ "$row" == *"| ok |" ]] || failed=$((failed + 1))
done
echo "fuzz: $((${#targets[@]} - failed)) of ${#targets[@]} targets clean" >&2
[ "$failed" -eq 0 ]
