#!/usr/bin/env bash
# FP8 per-tensor at 128 x 256 with A through registers (the RS form: the
# two column halves of the promoting gemm share one read of A) against the
# example's SS form (aot-fp8/e4m3): checks, sanitizers, then the benchmark
# against torch._scaled_mm, two rounds alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
BENCH="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
RS=fp8rs/libfp8_gemm.so SS=aot-fp8/e4m3/libfp8_gemm.so
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
echo "== check rs"
timeout 200 python3 fp8-torch.py --library $RS --kind tensor --check "$CHECK" --offsets 0,16,1 2>&1 | tail -4
for tool in memcheck racecheck synccheck; do
  echo "== $tool rs"
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library $RS --kind tensor --check 129x65x300,3x5x7 --offsets 0 2>&1 | tail -2
  echo "exit ${PIPESTATUS[0]}"
done
for round in 1 2; do
  for lib in $SS $RS; do
    echo "== bench $lib round $round"
    timeout 200 python3 fp8-torch.py --library $lib --kind tensor --bench "$BENCH" 2>&1 | tail -7
  done
done
