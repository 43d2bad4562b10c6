#!/bin/bash
# Run 175: the build with launches that overlap the kernel before
# (tile-dependent-launch): gpu-run.sh and fp8-run.sh (every check and the
# sanitizers), then the same sources compiled with and without
# (tile-to-nvvm dependent-launch=false), each against cuBLAS / cuBLASLt /
# cuDNN in its own process, alternating, two rounds: the bf16 GEMM sweep,
# the FP8 per-tensor example, the D128 FlashAttention.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
STEP_TIMEOUT=120 bash gpu-run.sh > $OUT/gpu-run.log 2>&1
log "gpu-run exit $?"
grep -E "^(PASS|FAIL|XFAIL|SKIP)|all steps|summary" $OUT/gpu-run.log | tail -40 | tee -a $L
STEP_TIMEOUT=150 bash fp8-run.sh > $OUT/fp8-run.log 2>&1
log "fp8-run exit $?"
grep -E "PASS|FAIL|steps|geomean" $OUT/fp8-run.log | tail -40 | tee -a $L
SW=2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048
log "== check gemm (dependent launch) offsets 0 1 8"
for off in 0 1 8; do timeout 150 ./tile-gemm-bench --library=ab/gemm/libgemm.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023,5120x5120x5120,64x64x65536,300x8192x128 --offset=$off 2>&1 | grep -E "FAIL|summary" | tee -a $L; done
for round in 1 2; do for v in gemm-nopdl gemm; do
  log "== sweep $v round $round"
  timeout 200 ./tile-gemm-bench --library=ab/$v/libgemm.so --dtype=bf16 --shapes=$SW --runs=5 2>&1 | grep -E "^\| [0-9]" | tee -a $L
done; done
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384,2048x2048x2048"
for round in 1 2; do for v in fp8-nopdl fp8; do
  log "== fp8 $v round $round"; timeout 90 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done; done
log "== check fa (dependent launch)"; timeout 150 python3 fa-sdpa.py --library=ab/fa/libflash_attention.so --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1 2>&1 | tail -2 | tee -a $L
for round in 1 2; do for v in fa-nopdl fa; do
  log "== fa $v round $round"; timeout 120 python3 fa-sdpa.py --library=ab/$v/libflash_attention.so --bench --shapes=4:16:4096,16:16:1024,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
done; done
log "== done $(date -u)"
