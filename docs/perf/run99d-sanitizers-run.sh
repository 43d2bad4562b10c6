#!/usr/bin/env bash
# The rotated example at BN = 128 (fa-rot128): memcheck and synccheck on
# fa-host (the tile-mlir kernel only) and the check at offset 8.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
for tool in memcheck synccheck; do
  echo "== $tool fa-rot128"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=flash_attention fa-rot128/fa-host --dtype=f16 --shape=1x2x129,1x1x77@1,1x1x300 2>&1 | tail -3
  echo "exit ${PIPESTATUS[0]}"
done
echo "== check fa-rot128 offset 8"
timeout 150 python3 fa-sdpa.py --library=fa-rot128/libflash_attention.so --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=8 2>&1 | tail -1
