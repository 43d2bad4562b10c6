#!/usr/bin/env bash
# Run 113: values per tile in persistent kernels (opaque thread id and
# shared base per tile, no LICM out of the tile loop): SASS of the
# persistent FlashAttention (where ptxas spills), its checks and speed
# against one block per tile, producer budgets 40 and 24; the default GEMM
# (persistent) before and after.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
for v in ncp40 ncp24; do
  cuobjdump -sass x113/$v.cubin > "$OUT/$v.sass" 2>&1
  echo "== $v spills: $(grep -c 'STL' "$OUT/$v.sass") STL, $(grep -c 'LDL' "$OUT/$v.sass") LDL"
done
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096,3:5:600 --offset=0,8,1"
for v in ncp40 ncp24 nc24; do
  echo "== check $v"; timeout 200 python3 fa-sdpa.py --library x113/$v.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
done
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
for round in 1 2; do
  for v in nc nc24 ncp40 ncp24; do
    B $v $round --library x113/$v.so --shapes=16:16:1024,4:16:4096,1:32:16384
  done
done
echo "== check gemm new"
timeout 150 ./tile-gemm-bench --library=x113/gemm.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5120x5120x5120 | tail -1
timeout 100 ./tile-gemm-bench --library=x113/gemm.so --dtype=bf16 --check --no-cublas --offset=1 --shapes=3x5x7,1000x1000x1000,4095x4097x1023 | tail -1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x1024,8192x8192x1024,4096x4096x16384,16384x4096x4096,4096x14336x4096"
for round in 1 2; do
  for n in aot/bf16/libgemm.so x113/gemm.so; do
    echo "== bench $n round $round"
    timeout 150 ./tile-gemm-bench --library=$n --dtype=bf16 --shapes="$SWEEP" --runs=3 | grep "^| [0-9]"
  done
done
