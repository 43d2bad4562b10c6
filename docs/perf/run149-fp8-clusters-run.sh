#!/bin/bash
# Run 149: FP8 per-tensor at 128 x 128 tiles, 4 and 6 stages (slots
# carried), with clusters of two and launch groups of 8 or 2 (cuBLASLt's
# kernel of run 145: 128 x 128, 6 stages, clusters 2x1), against
# torch._scaled_mm.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
log "== tune-time"
timeout 200 ./tile-tune-time f8c --shapes "$FP8" --runs 7 --cache $OUT/f8c.cache --save-timings $OUT/f8c-timings.txt 2>&1 | grep -v "variants, best" | tail -5 | tee -a $L
grep -v "^#" $OUT/f8c-timings.txt >> $L
for v in $BENCH; do
  log "== bench $v $(grep "^variant ${v#v} " f8c/manifest.txt | cut -d' ' -f3)"
  timeout 90 python3 fp8-torch.py --library f8c/$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking" | tee -a $L
done
log "== bench example-config f8/v3"
timeout 90 python3 fp8-torch.py --library f8/v3.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking" | tee -a $L
for v in $CHECK; do
  log "== check $v"
  timeout 120 python3 fp8-torch.py --library f8c/$v.so --kind tensor --function fp8_gemm --check "1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0,16,1 2>&1 | tail -1 | tee -a $L
done
log "== done $(date -u)"
