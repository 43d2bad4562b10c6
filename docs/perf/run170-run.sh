#!/bin/bash
# Run 170: the tensor-store epilogue writing its staging buffers with
# stmatrix (p/new) against element stores (p/r40, the compiler before):
# checks of every kernel it changes (bf16 and f16 GEMM, FP8 with bf16 out,
# 2:4 sparse), the sanitizers, the 15-shape sweep against cuBLAS and FP8
# against _scaled_mm, rounds alternating.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
GS=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,4096x4096x512,300x8192x128
for d in bf16:gemm f16:gemm16; do
  for off in 0 1 8; do
    timeout 150 ./tile-gemm-bench --library=p/new/${d##*:}/libgemm.so --dtype=${d%%:*} --check --shapes=$GS --offset=$off > $OUT/check-$d-$off.log 2>&1
    log "check gemm ${d%%:*} offset $off: rc=$? $(grep 'check summary' $OUT/check-$d-$off.log)"
  done
done
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 3 ./tile-gemm-bench --library=p/new/gemm/libgemm.so --dtype=bf16 --check --shapes=513x257x300,256x512x128 --no-cpu-ref > $OUT/san-$t.log 2>&1
  log "$t gemm: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$t.log | tail -1)"
done
for k in tensor rowwise blockwise; do
  timeout 150 python3 fp8-torch.py --library p/new/fp8/libfp8_gemm.so --kind $k --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096" --offsets 0,16,1 > $OUT/check-fp8-$k.log 2>&1
  log "check fp8 $k: PASS $(grep -c PASS $OUT/check-fp8-$k.log) FAIL $(grep -c FAIL $OUT/check-fp8-$k.log)"
done
timeout 150 python3 sparse-torch.py --library p/new/sp/sp_f16.so --compressor p/new/sp/compress_f16.so --dtype f16 --out f16 --check 256x512x4096,4095x4097x1023,1000x1000x1000,1x32x8,3x5x7,17x40x130,128x128x64 --offsets 0,1,8 > $OUT/check-sp.log 2>&1
log "check sparse: PASS $(grep -c PASS $OUT/check-sp.log) FAIL $(grep -c FAIL $OUT/check-sp.log) $(grep -ci error $OUT/check-sp.log) error lines"
SW=2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048
geo() { awk -F'|' '/^\| [0-9]/ {n++; s+=log($6)} END {if (n) printf "geomean %.4f over %d shapes\n", exp(s/n), n}'; }
for round in 1 2; do
  for t in r40 new; do
    log "== sweep $t round $round"
    timeout 150 ./tile-gemm-bench --library=p/$t/gemm/libgemm.so --dtype=bf16 --shapes=$SW --runs=5 2>&1 | grep "^| [0-9]" > $OUT/sweep-$t-$round.txt
    cat $OUT/sweep-$t-$round.txt >> $L; geo < $OUT/sweep-$t-$round.txt | tee -a $L
  done
done
for round in 1 2; do
  for t in r40 new; do
    log "== fp8 $t round $round"
    timeout 90 python3 fp8-torch.py --library p/$t/fp8/libfp8_gemm.so --kind tensor --bench "4096x4096x4096,8192x8192x8192,8192x8192x4096" --runs 5 2>&1 | grep -E "geomean" | tee -a $L
  done
done
log "== done $(date -u)"
