#!/usr/bin/env bash
# A bounded run of one libFuzzer target, as CI does it (scripts/test.sh):
#
#   tools/tile-fuzz/libfuzzer/ci-run.sh BUILD_DIR FUZZER SECONDS
#
# FUZZER is tile-capi-fuzzer or tile-pass-fuzzer, built in BUILD_DIR (a
# TILE_ENABLE_LIBFUZZER tree). It writes a fresh seed corpus from the tests
# and examples (make-corpus.py: --selectors spread, all chunks, for the pass
# target; --selectors auto for the C API target, which compiles each seed
# through a whole pipeline at about 3 inputs/s: only
# $TILE_LIBFUZZER_CAPI_SEEDS of them, default 150, one of each test file
# first) to BUILD_DIR/libfuzzer/FUZZER/seeds, and
# fuzzes for about SECONDS seconds (libFuzzer's -max_total_time; the first
# pass over the seeds always completes) in plain mode, which stops at the
# first finding. New inputs go to .../corpus, findings to .../artifacts, the
# output to .../fuzz.log. Leak detection is off (-detect_leaks=0): the
# target's context keeps what it uniques across inputs by design, and
# libFuzzer would run every such input twice to look for leaks.
#
# Exits 0 when libFuzzer found nothing. Otherwise it prints the end of the
# log (the report and its stack) and each finding: its file, the pipeline
# its selector byte picks and the MLIR text, with the commands that
# reproduce it; and exits 1.
set -uo pipefail

if (($# != 3)); then
  echo "usage: $0 BUILD_DIR tile-capi-fuzzer|tile-pass-fuzzer SECONDS" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
name=$2
seconds=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "$name" in
tile-capi-fuzzer)
  seed_args=(--selectors auto --limit "${TILE_LIBFUZZER_CAPI_SEEDS:-150}")
  ;;
tile-pass-fuzzer) seed_args=(--selectors spread) ;;
*)
  echo "$0: unknown fuzzer '$name'" >&2
  exit 2
  ;;
esac
bin="$build/bin/$name"
work="$build/libfuzzer/$name"
if [[ ! -x "$bin" ]]; then
  echo "$name: error: $bin was not built" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
python3 "$here/make-corpus.py" "$work/seeds" "${seed_args[@]}" ||
  exit 1

"$bin" "$work/corpus" "$work/seeds" -max_total_time="$seconds" \
  -detect_leaks=0 -timeout=180 -report_slow_units=60 -rss_limit_mb=4096 -max_len=65536 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  >"$work/fuzz.log" 2>&1
status=$?

# libFuzzer's last words: the seeds it ran, and how far it got.
stats=$(grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$work/fuzz.log" | tail -2 |
  tr '\n' ' ')
findings=("$work"/artifacts/*)
[[ -e "${findings[0]}" ]] || findings=()
if ((status == 0 && ${#findings[@]} == 0)); then
  echo "$name: ok, ${seconds} s, no finding: $stats"
  exit 0
fi

echo "$name: FAILED (libFuzzer exit status $status, ${#findings[@]} finding(s)); log: $work/fuzz.log"
echo "---- end of the log"
tail -n 60 "$work/fuzz.log"
# pipeline BYTE: the pass pipeline the target runs for a selector byte (see
# tile_capi_fuzzer.c and tile_pass_fuzzer.c), empty for parsing alone.
pipeline() {
  if [[ "$name" == tile-capi-fuzzer ]]; then
    local capi=("" "tile-to-nvvm{chip=sm_80 format=isa}"
      "tile-to-nvvm{chip=sm_90a format=isa}"
      "tile-to-rocdl{chip=gfx942 format=isa}")
    local p=${capi[$(($1 % 4))]}
    [[ -n "$p" ]] && echo "builtin.module($p)"
    return
  fi
  local passes prefixes=("" "tile-attach-target," "tile-attach-target{chip=gfx942},")
  mapfile -t passes < <(TILE_FUZZ_LIST_PASSES=1 "$bin" 2>/dev/null)
  local n=${#passes[@]}
  ((n > 0)) || return
  echo "builtin.module(${prefixes[$(($1 / n % 3))]}${passes[$(($1 % n))]})"
}

for f in "${findings[@]}"; do
  byte=$(od -An -tu1 -N1 "$f" | tr -d ' ')
  pipe=$(pipeline "${byte:-0}")
  echo "---- finding $f: selector byte ${byte:-none}, pipeline ${pipe:-none (parse, verify, print, C header)}; the MLIR text:"
  tail -c +2 "$f"
  echo
  echo "---- reproduce: $bin $f"
  echo "     or: tail -c +2 $f > repro.mlir &&"
  echo "         tile-opt repro.mlir${pipe:+ --pass-pipeline='$pipe'}"
done
exit 1
