#!/bin/bash
# Run 163: FP8 block-wise with the consumer warpgroups taking turns
# (tile.pingpong = true on examples/fp8_gemm.mlir's kernels; 4 and 5 stages)
# against the example's block-wise kernel (no turns, 4 stages) and 5 stages
# without turns, two rounds in one process; checks and racecheck.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for v in bw/bw_pp4 bw/bw_pp5; do
  timeout 120 python3 fp8-torch.py --library $v.so --kind blockwise --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096" --offsets 0,16,1 > /tmp/c.log 2>&1
  log "check $v: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"
done
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 python3 fp8-torch.py --library bw/bw_pp4.so --kind blockwise --check 129x65x300 --offsets 0 > /tmp/r.log 2>&1
log "racecheck bw_pp4: rc=$? $(grep 'RACECHECK SUMMARY' /tmp/r.log)"
timeout 120 compute-sanitizer --tool synccheck --error-exitcode 3 python3 fp8-torch.py --library bw/bw_pp4.so --kind blockwise --check 129x65x300 --offsets 0 > /tmp/r.log 2>&1
log "synccheck bw_pp4: rc=$? $(grep 'ERROR SUMMARY' /tmp/r.log)"
for round in 1 2; do
  for v in aot-fp8/e4m3/libfp8_gemm bw/bw_pp4 bw/bw_pp5 bw/bw_s5; do
    log "== bench blockwise $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $L
  done
done
log "== done $(date -u)"
