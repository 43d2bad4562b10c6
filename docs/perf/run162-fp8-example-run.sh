#!/bin/bash
# Run 162: the FP8 example at 128 x 128 tiles, 5 stages, consumer turns by
# default (fp8-run.sh: checks, sm_89, sanitizers, speed), then the old
# example's per-tensor kernel (128 x 256, 4 stages) against the new one in
# one process, three rounds.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/ab.log
STEP_TIMEOUT=120 timeout 400 bash fp8-run.sh > /dev/null 2>&1
tail -40 $OUT/fp8-run.log
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2 3; do
  echo "== old round $round" | tee -a $OUT/ab.log
  timeout 90 python3 fp8-torch.py --library old/libold.so --kind tensor --function fp8_gemm_tensor --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $OUT/ab.log
  echo "== new round $round" | tee -a $OUT/ab.log
  timeout 90 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $OUT/ab.log
done
