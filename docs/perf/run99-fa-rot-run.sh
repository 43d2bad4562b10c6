#!/usr/bin/env bash
# FlashAttention with the key loop rotated by one block (Q K^T of block kb
# and P V of block kb - 1 in flight together, the softmax of block kb
# while P V runs; docs/perf/run99-fa-rotated.mlir) against the example
# (aot-fa/nc-f16-d128): checks as fa-matrix.sh, sanitizers on fa-host,
# then B4 H16 S4096 against cuDNN, alternating, three rounds.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
ROT=fa-rot EX=aot-fa/nc-f16-d128
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
echo "== check rot"
timeout 200 python3 fa-sdpa.py --library=$ROT/libflash_attention.so --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1 2>&1 | tail -16
for tool in memcheck racecheck synccheck; do
  echo "== $tool rot"
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=flash_attention $ROT/fa-host --dtype=f16 --shape=1x2x129,1x1x77@1 2>&1 | tail -3
  echo "exit ${PIPESTATUS[0]}"
done
for round in 1 2 3; do
  for lib in $EX $ROT; do
    echo "== bench $lib round $round"
    timeout 120 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
