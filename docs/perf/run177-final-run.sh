#!/bin/bash
# Run 177: the committed build (tile-dependent-launch, the signal at the
# end): the tuner's library (the cache of run 95, built by tile-compile
# --tuned) against the example, checks and two rounds of the sweep; the
# FlashAttention library through fa-sdpa.py; gpu-run.sh and fp8-run.sh.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
SW=2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048
lib=tuned/lib.so
log "== check tuned"
timeout 150 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512,8192x8192x8192,4096x14336x4096 2>&1 | tail -1 | tee -a $L
for off in 1 8; do
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023 2>&1 | tail -1 | tee -a $L
done
log "== synccheck tuned"; timeout 100 compute-sanitizer --tool synccheck --error-exitcode 9 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --shapes=256x256x256,129x65x33 2>&1 | tail -1 | tee -a $L
for round in 1 2; do
  for n in tuned/lib.so aot/bf16/libgemm.so; do
    log "== sweep $n round $round"
    timeout 150 ./tile-gemm-bench --library=$n --dtype=bf16 --shapes="$SW" --runs=5 2>&1 | grep "^| [0-9]" | tee -a $L
  done
done
fa=$(ls aot-fa/nc-f16-d128/*.so | head -1)
log "== fa-sdpa check $fa"; timeout 150 python3 fa-sdpa.py --library=$fa --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1 2>&1 | tail -1 | tee -a $L
STEP_TIMEOUT=120 bash gpu-run.sh > $OUT/gpu-run.log 2>&1
log "gpu-run exit $?"; grep -E "all steps|FAIL " $OUT/gpu-run.log | tail -5 | tee -a $L
STEP_TIMEOUT=150 bash fp8-run.sh > $OUT/fp8-run.log 2>&1
log "fp8-run exit $?"; grep -E "FAIL \(|geomean" $OUT/fp8-run.log | tail -8 | tee -a $L
log "== done $(date -u)"
