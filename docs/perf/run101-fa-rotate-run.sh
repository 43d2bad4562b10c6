#!/usr/bin/env bash
# tile-rotate-loops with the edge copies hoisted (run 101): the FlashAttention
# matrix (every variant at BN = 128, rotated by the compiler; fa-matrix.sh),
# then speed against cuDNN, three rounds alternating: rotated (aot-fa/*)
# against kept as written (tile.rotate = false: fa-nr128, fa-cnr128,
# fa-cd64nr, fa-ncd64nr), the shipped examples (BN = 64: fa-ex64, fa-cex64)
# and the hand-rotated example (fa-hand).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
bash fa-matrix.sh 2>&1 | tail -60
for round in 1 2 3; do
  for lib in fa-ex64 fa-nr128 aot-fa/nc-f16-d128 fa-hand fa-cex64 fa-cnr128 aot-fa/causal-f16-d128 fa-cd64nr aot-fa/causal-f16-d64 fa-ncd64nr aot-fa/nc-f16-d64; do
    echo "== bench $lib round $round"
    timeout 100 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
