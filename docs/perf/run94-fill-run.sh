#!/usr/bin/env bash
# Why the tuner and the benchmark disagree: three variants (128 x 128,
# 128 x 256, 256 x 128; tune2/ names them) timed by tile-tune-time on a
# repeated 1 MiB pattern of random data (tile-tune-time-pattern, as of
# f6c4481) and on random data throughout (tile-tune-time), twice each,
# then by tile-gemm-bench (random matrices, cuBLAS alternating).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
S="4096x14336x4096,2048x8192x2048,16384x4096x4096,8192x8192x8192,4096x4096x4096"
for pass in 1 2; do
  for t in tile-tune-time-pattern tile-tune-time; do
    echo "== $t pass $pass"
    timeout 120 ./$t tune2 --shapes "$S" --cache $OUT/x.cache --save-timings $OUT/$t-$pass.txt > /dev/null
    cat $OUT/$t-$pass.txt
  done
done
for lib in tune/v4.so tune/v12.so tune/v20.so; do
  echo "== bench $lib"
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --shapes="$S" --runs=5 | grep "^| [0-9]"
done
