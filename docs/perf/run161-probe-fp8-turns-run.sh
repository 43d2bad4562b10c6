#!/bin/bash
# Run 161: (1) racecheck on the cp.async + mbarrier hand-off alone
# (bench/probes/cp_async_mbarrier_probe.cu, built by nvcc here with and
# without -DDEFERRED into probe/); (2) FP8 per-tensor, same process, three
# rounds: the example (128 x 256, 4 stages; f8pp/v5 of run 151) against
# 128 x 128 at 5 and 6 stages (cl/v0, cl/v2 of run 157), and the same with
# turns (pp/: tile-tune --compile-only of examples/fp8_gemm_tunable.mlir,
# BN = 128, STAGES = 5 6, PINGPONG = true), commit 96a6fc1's compiler.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
for p in probe probe_deferred; do
  ./probe/$p 2>&1 | tee -a $L
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 ./probe/$p > $OUT/racecheck-$p.log 2>&1
  log "racecheck $p: rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck-$p.log)"
  timeout 60 compute-sanitizer --tool synccheck --error-exitcode 3 ./probe/$p > $OUT/synccheck-$p.log 2>&1
  log "synccheck $p: rc=$? $(grep -E 'ERROR SUMMARY' $OUT/synccheck-$p.log)"
done
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2 3; do
  for v in f8pp/v5 cl/v0 cl/v2 pp/v0 pp/v1; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
log "== checks turns"
for v in pp/v0 pp/v1; do
  timeout 120 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096" --offsets 0,16,1 > /tmp/c.log 2>&1
  log "check $v: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"
done
log "== done $(date -u)"
