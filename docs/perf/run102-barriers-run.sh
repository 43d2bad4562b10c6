#!/usr/bin/env bash
# Run 102: tile-insert-barriers lets writes to shared memory separated only
# by thread-local ops share their barriers (the rotated FlashAttention's Q,
# first-key and last-value copies then load together). gpu-run.sh (GEMM,
# runtime and FlashAttention checks, sanitizers), the FlashAttention matrix
# (fa-matrix.sh, every BN = 128 variant rotated), then rotated (aot-fa/*)
# against kept as written (tile.rotate = false), three rounds alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
bash gpu-run.sh 2>&1 | tail -45
bash fa-matrix.sh 2>&1 | tail -12
for round in 1 2 3; do
  for lib in fa-nr128 aot-fa/nc-f16-d128 fa-cnr128 aot-fa/causal-f16-d128 fa-cd64nr aot-fa/causal-f16-d64 fa-ncd64nr aot-fa/nc-f16-d64; do
    echo "== bench $lib round $round"
    timeout 100 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
