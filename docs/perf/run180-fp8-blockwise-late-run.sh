#!/bin/bash
# Run 180: block-scaled FP8 with the K block's consumer one gemm late
# (tile.consumer_late): old = HEAD's example (consumer in place), new = the
# working tree's example (late, turns by default), noturn = new with
# tile.pingpong = false.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
CHK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for v in new noturn; do
  log "== check $v blockwise"
  timeout 200 python3 fp8-torch.py --library x2/$v.so --kind blockwise --check "$CHK" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
log "== check new blockwise e5m2 A"
timeout 200 python3 fp8-torch.py --library x2/new.so --kind blockwise --a-dtype e5m2 --check "$CHK" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
for k in tensor rowwise; do
  log "== check new $k"
  timeout 200 python3 fp8-torch.py --library x2/new.so --kind $k --check "$CHK" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
log "== memcheck new blockwise"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 fp8-torch.py --library x2/new.so --kind blockwise --check 129x65x300,3x5x7 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|checks passed|FAIL" | tail -3 | tee -a $L
for tool in racecheck synccheck; do
  log "== $tool new blockwise"
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library x2/new.so --kind blockwise --check 129x65x300 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|HAZARD|hazard|checks passed|FAIL" | tail -3 | tee -a $L
done
for round in 1 2 3; do
  for v in old new noturn; do
    log "== bench $v blockwise round $round"
    timeout 120 python3 fp8-torch.py --library x2/$v.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
