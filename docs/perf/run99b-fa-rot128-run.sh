#!/usr/bin/env bash
# The rotated key loop at BN = 128 (docs/perf/run99-fa-rotated-bn128.mlir)
# against the example at BN = 128 (scripts/fa-variant.py --block-n 128) and
# as shipped (BN = 64): check, then B4 H16 S4096 and B1 H32 S16384 against
# cuDNN, alternating, three rounds.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
echo "== check rot128"
timeout 200 python3 fa-sdpa.py --library=fa-rot128/libflash_attention.so --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,1 2>&1 | tail -1
for tool in racecheck synccheck; do
  echo "== $tool rot128"
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 fa-sdpa.py --library=fa-rot128/libflash_attention.so --check --check-shapes=1:1:129 --offset=0 2>&1 | tail -2
  echo "exit ${PIPESTATUS[0]}"
done
for round in 1 2 3; do
  for lib in aot-fa/nc-f16-d128 fa-ex128 fa-rot128; do
    echo "== bench $lib round $round"
    timeout 120 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
