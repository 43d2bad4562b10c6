#!/bin/bash
# Run 160: old (96a6fc1, loop unrolled in tile-plan-pipes) against new (the
# loop trimmed, then unrolled after the lowering), same process per pair;
# racecheck on both.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
L=${OUT:-/tmp}/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
date -u | tee -a $L
bench() { # dir lib
  timeout 120 python3 sparse-torch.py --library $1/$2.so --dtype f16 --out f16 --bench 4096x4096x4096,8192x8192x8192 --dense-library sp/dense_f16.so --runs 7 2>&1 | grep -E 'own dense|rror' | sed "s/^/$1 $2: /" | tee -a $L
}
san() { # dir lib tool
  timeout 150 compute-sanitizer --tool $3 --error-exitcode 3 python3 sparse-torch.py --library $1/$2.so --out f16 --check 256x512x1024,129x300x700 --offsets 0,1 > $OUT/san-$1-$2-$3.log 2>&1; log "$3 $1 $2: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$1-$2-$3.log | tail -1) PASS $(grep -c PASS $OUT/san-$1-$2-$3.log)"; }
san spold sp_128x256_k64_s4 racecheck
san sp sp_128x256_k64_s4 racecheck
san sp sp_256x128_k128_s3 racecheck
san sp sp_128x128_k128_s4 racecheck
for r in 1 2; do
  log "== round $r"
  for v in sp_128x256_k64_s4 sp_256x128_k128_s3 sp_128x128_k128_s4; do bench spold $v; bench sp $v; done
  bench sp sp_128x256_k128_s2
done
log "== done $(date -u)"
