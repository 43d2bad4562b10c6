#!/usr/bin/env bash
# Builds tile-mlir (through setup.sh) and runs the whole lit suite
# (`ninja check-tile`). Ends with one summary line:
#
#   N passed, N failed[, N skipped]
#
# passed  = Passed + Passed With Retry + Expectedly Failed (XFAIL)
# failed  = Failed + Unresolved + Unexpectedly Passed (XPASS) + Timed Out
# skipped = Unsupported + Skipped + Excluded (e.g. GPU tests without a GPU)
#
# With CI=true (or TILE_SANITIZER_CHECK=1; TILE_SANITIZER_CHECK=0 turns it
# off), after that suite it also builds a second tree with clang,
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation (-DTILE_ENABLE_SANITIZERS=ON -DTILE_ENABLE_LIBFUZZER=ON, in
# $SANITIZER_BUILD_DIR, default <repo>/build-asan), runs the lit suite there
# and then a bounded fuzzing run of the sanitized tile-opt
# (tools/tile-fuzz, fixed seed, $TILE_FUZZ_SECONDS seconds, default 180),
# which fails if the fuzzer finds any bug. Then it runs that tree's libFuzzer
# targets (tile-capi-fuzzer and tile-pass-fuzzer, built with the rest) both
# at once, seeded with the tests, for $TILE_LIBFUZZER_SECONDS seconds each
# (default 120; tools/tile-fuzz/libfuzzer/ci-run.sh), which fails on any
# finding and prints its reproducer. TILE_LIBFUZZER_CHECK=0 skips them and
# builds the sanitizer tree with gcc, without the coverage instrumentation.
# The summary line then counts both lit suites, and the fuzzing run and each
# libFuzzer run as one test.
#
# Exits non-zero if any test failed, if lit found no tests, or if a build
# failed before lit could report. BUILD_DIR overrides the build directory;
# the full lit output is kept in $BUILD_DIR/check-tile.log (and
# $SANITIZER_BUILD_DIR/check-tile.log, the fuzzer's in
# $SANITIZER_BUILD_DIR/fuzz.log and $SANITIZER_BUILD_DIR/fuzz/, libFuzzer's
# in $SANITIZER_BUILD_DIR/libfuzzer/<target>/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
SANITIZER_BUILD_DIR="${SANITIZER_BUILD_DIR:-$ROOT/build-asan}"

sanitizers=0
libfuzzer=1
[[ "${TILE_LIBFUZZER_CHECK:-1}" == 0 ]] && libfuzzer=0
if [[ "${TILE_SANITIZER_CHECK:-}" == 1 ||
      ( "${CI:-}" == true && "${TILE_SANITIZER_CHECK:-}" != 0 ) ]]; then
  sanitizers=1
fi

bash "$ROOT/scripts/setup.sh"

# run_lit BUILD_DIR: runs `ninja check-tile` there, output in
# BUILD_DIR/check-tile.log; sets lit_status to ninja's exit status.
run_lit() {
  local log="$1/check-tile.log"
  set +e
  ninja -C "$1" ${NINJA_JOBS:+-j "$NINJA_JOBS"} check-tile 2>&1 | tee "$log"
  lit_status=${PIPESTATUS[0]}
  set -e
  if ! grep -q '^Total Discovered Tests:' "$log"; then
    echo "test: error: lit did not report results (build failure?); see $log" >&2
    exit 1
  fi
}

# lit's summary comes after "Total Discovered Tests: N", in lines like
# "  Passed: 12 (92.31%)" or "  Failed     : 1 (25.00%)"; only that part of the log is read, so that test
# output cannot be mistaken for it.
count() {
  awk -v want="$1" '
    /^Total Discovered Tests:/ { summary = 1; next }
    !summary { next }
    {
      line = $0; sub(/^[ \t]+/, "", line)
      if (index(line, want) != 1) next
      rest = substr(line, length(want) + 1)
      # lit pads names to align the colons: "  Passed     : 2 (50.00%)".
      if (!sub(/^[ \t]*:[ \t]*/, "", rest)) next
      sub(/[^0-9].*$/, "", rest); total += rest
    }
    END { print total + 0 }' "$2"
}

passed=0 failed=0 skipped=0 ok=1
# tally BUILD_DIR NAME: adds the results of BUILD_DIR/check-tile.log.
tally() {
  local log="$1/check-tile.log"
  local p f s
  p=$(( $(count "Passed" "$log") + $(count "Passed With Retry" "$log") +
        $(count "Expectedly Failed" "$log") ))
  f=$(( $(count "Failed" "$log") + $(count "Unresolved" "$log") +
        $(count "Unexpectedly Passed" "$log") + $(count "Timed Out" "$log") ))
  s=$(( $(count "Unsupported" "$log") + $(count "Skipped" "$log") +
        $(count "Excluded" "$log") ))
  if ((lit_status != 0 && f == 0)); then
    echo "test: error: ninja check-tile ($2) exited with status $lit_status; see $log" >&2
    ok=0
  fi
  if ((p == 0)); then
    echo "test: error: lit ran no tests ($2)" >&2
    ok=0
  fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

run_lit "$BUILD_DIR"
tally "$BUILD_DIR" "$BUILD_DIR"

if ((sanitizers)); then
  echo "test: sanitizer build in $SANITIZER_BUILD_DIR"
  # Configure (or switch on the sanitizers) and build everything: the lit
  # suite also runs the runtime's and the benchmark's programs, and the
  # libFuzzer targets come from the same tree.
  TILE_SANITIZERS=1 TILE_LIBFUZZER=$libfuzzer \
    BUILD_DIR="$SANITIZER_BUILD_DIR" bash "$ROOT/scripts/setup.sh"
  run_lit "$SANITIZER_BUILD_DIR"
  tally "$SANITIZER_BUILD_DIR" "$SANITIZER_BUILD_DIR"

  # A bounded fuzzing run with a fixed seed: any crash, sanitizer report,
  # hang, unlocated error or error with exit code 0 fails it.
  fuzz_log="$SANITIZER_BUILD_DIR/fuzz.log"
  echo "test: fuzzing $SANITIZER_BUILD_DIR/bin/tile-opt for ${TILE_FUZZ_SECONDS:-180} s"
  set +e
  python3 "$ROOT/tools/tile-fuzz/tile-fuzz.py" \
    --tile-opt "$SANITIZER_BUILD_DIR/bin/tile-opt" \
    --seed "${TILE_FUZZ_SEED:-1}" --time-budget "${TILE_FUZZ_SECONDS:-180}" \
    --jobs "${NINJA_JOBS:-2}" --timeout 60 --no-memory-limit \
    --fail-on-bugs --out "$SANITIZER_BUILD_DIR/fuzz" 2>&1 | tee "$fuzz_log"
  fuzz_status=${PIPESTATUS[0]}
  set -e
  if ((fuzz_status == 0)); then
    passed=$((passed + 1))
  else
    echo "test: error: tile-fuzz found bugs or failed (status $fuzz_status); see $fuzz_log and $SANITIZER_BUILD_DIR/fuzz/" >&2
    failed=$((failed + 1))
  fi

  # Coverage-guided fuzzing (libFuzzer, clang): the two targets at once, one
  # per core, each one test.
  if ((libfuzzer)); then
    libfuzzers=(tile-capi-fuzzer tile-pass-fuzzer)
    echo "test: libFuzzer: ${libfuzzers[*]} for ${TILE_LIBFUZZER_SECONDS:-120} s each, at once"
    pids=()
    for f in "${libfuzzers[@]}"; do
      bash "$ROOT/tools/tile-fuzz/libfuzzer/ci-run.sh" "$SANITIZER_BUILD_DIR" \
        "$f" "${TILE_LIBFUZZER_SECONDS:-120}" >"$SANITIZER_BUILD_DIR/$f.ci.log" 2>&1 &
      pids+=($!)
    done
    for i in "${!libfuzzers[@]}"; do
      set +e
      wait "${pids[$i]}"
      status=$?
      set -e
      cat "$SANITIZER_BUILD_DIR/${libfuzzers[$i]}.ci.log"
      if ((status == 0)); then
        passed=$((passed + 1))
      else
        echo "test: error: ${libfuzzers[$i]} found a bug or failed (status $status); see $SANITIZER_BUILD_DIR/libfuzzer/${libfuzzers[$i]}/" >&2
        failed=$((failed + 1))
      fi
    done
  fi
fi

((failed > 0)) && ok=0

summary="$passed passed, $failed failed"
((skipped > 0)) && summary+=", $skipped skipped"
echo "$summary"
((ok)) || exit 1
