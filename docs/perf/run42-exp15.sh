#!/usr/bin/env bash
# Session 16, run 42: tensor-store epilogue whose last panel does not wait
# (new-*) against the committed lowering (base-*), and asked-for staging
# buffers (tile.tma_store_buffers = 8 with 3 stages).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
CHECK="1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,1x4096x4096,8192x16x4096,2047x1025x513,2048x4096x128"
{
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
date -u
if [[ ${1:-a} == a ]]; then
for n in new-ex new-ex3s8 new-t256 new-ex3; do
  lib=defaults/$n/lib.so
  echo "== check $n"
  timeout 120 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes="$CHECK" | tail -2
  for off in 1 8; do
    timeout 60 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=129x65x33,1000x1000x1000,4095x4097x1023 | tail -1
  done
done
fi
if [[ ${1:-a} == b ]]; then
for n in new-ex new-ex3s8; do
  for tool in memcheck racecheck synccheck; do
    echo "== $tool $n"
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --no-cpu-ref --no-cublas --shapes=129x65x33,2048x4096x128 | tail -2
    echo "rc=$?"
  done
done
else
for round in 1 2; do
  for n in base-ex new-ex new-ex3s8 base-ex3 new-ex3; do
    echo "== bench $n (round $round)"
    timeout 90 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep '^|'
  done
done
for n in base-t256 new-t256; do
  echo "== bench $n"
  timeout 90 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep '^|'
done
echo "== short K repeated"
for r in 1 2 3; do
  for n in base-ex new-ex new-ex3s8; do
    echo "-- $n"
    timeout 60 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes=4096x4096x256,8192x8192x1024,5120x5120x5120 --runs=10 | grep '^|'
  done
done
fi
if [[ ${1:-a} == b ]]; then
for v in base new; do
  echo "== f32 out $v"
  timeout 120 python3 gemm-torch.py --library=defaults/$v-f32out/lib.so --kind=gemm --function=gemm_f32 --out-dtype=f32 --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 --bench=4096x4096x4096,8192x8192x8192
  echo "== bias relu $v"
  timeout 120 python3 gemm-torch.py --library=defaults/$v-biasrelu/lib.so --kind=bias_relu --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 --bench=4096x4096x4096,8192x8192x8192
  echo "== batched $v"
  timeout 120 python3 gemm-torch.py --library=defaults/$v-bmm/lib.so --kind=bmm_nt --check=1x1x1x1,2x3x5x7,3x129x65x33,2x1000x1000x1000 --bench=16x1024x1024x1024,8x4096x4096x4096
done
fi
date -u
} 2>&1 | tee $OUT/exp15${1:-a}.log
