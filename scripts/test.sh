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
# Exits non-zero if any test failed, if lit found no tests, or if the build
# failed before lit could report. BUILD_DIR overrides the build directory;
# the full lit output is kept in $BUILD_DIR/check-tile.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

bash "$ROOT/scripts/setup.sh"

LOG="$BUILD_DIR/check-tile.log"
set +e
ninja -C "$BUILD_DIR" ${NINJA_JOBS:+-j "$NINJA_JOBS"} check-tile 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
set -e

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
    END { print total + 0 }' "$LOG"
}

if ! grep -q '^Total Discovered Tests:' "$LOG"; then
  echo "test: error: lit did not report results (build failure?); see $LOG" >&2
  exit 1
fi

passed=$(( $(count "Passed") + $(count "Passed With Retry") + $(count "Expectedly Failed") ))
failed=$(( $(count "Failed") + $(count "Unresolved") + $(count "Unexpectedly Passed") + $(count "Timed Out") ))
skipped=$(( $(count "Unsupported") + $(count "Skipped") + $(count "Excluded") ))

ok=1
if ((status != 0 && failed == 0)); then
  echo "test: error: ninja check-tile exited with status $status; see $LOG" >&2
  ok=0
fi
if ((passed == 0)); then
  echo "test: error: lit ran no tests" >&2
  ok=0
fi
((failed > 0)) && ok=0

summary="$passed passed, $failed failed"
((skipped > 0)) && summary+=", $skipped skipped"
echo "$summary"
((ok)) || exit 1
