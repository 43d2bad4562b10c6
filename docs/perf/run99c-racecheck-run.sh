#!/usr/bin/env bash
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
for n in rot128 ex128 rot; do
  echo "== racecheck fa-$n (fa-host, the tile-mlir kernel only)"
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 --kernel-name kns=flash_attention fa-$n/fa-host --dtype=f16 --shape=1x2x129,1x1x77@1,1x1x300 2>&1 | grep -v "^=========     \(Saved\|#\)" | head -30
  echo "exit ${PIPESTATUS[0]}"
done
