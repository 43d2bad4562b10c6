#!/usr/bin/env bash
# Run 128: FP8 per-tensor at 128 x 128 / 128 x 256 tiles with the consumer
# warpgroups taking turns (tile.pingpong) and the 32-bit slot decode for
# 5 and 6 stages; timed by tile-tune-time and against torch._scaled_mm.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,serial,driver_version,clocks.max.sm --format=csv
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for d in t128 t256; do
  echo "== tune $d"
  timeout 150 ./tile-tune-time $d --shapes "$FP8" --runs 7 --cache $OUT/$d.cache --save-timings $OUT/$d-timings.txt | grep -v "variants, best"
  cat $OUT/$d-timings.txt
done
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for lib in t128/v3.so t128/v1.so t256/v1.so t128/v2.so; do
  echo "== check $lib"
  timeout 120 python3 fp8-torch.py --library $lib --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | tail -2
done
for lib in fp8tune/v20.so t256/v0.so t256/v1.so t128/v0.so t128/v1.so t128/v2.so t128/v3.so t128/v4.so t128/v5.so fp8tune/v8.so; do
  echo "== bench $lib"
  timeout 100 python3 fp8-torch.py --library $lib --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking"
done
