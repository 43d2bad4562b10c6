#!/bin/bash
# Run 172: clusters of two against single blocks, FP8 (128 x 128, 5 stages,
# turns; 6 stages without turns) and bf16 (128 x 256, 4 stages): speed in
# one process, then ncu (L2 traffic, stalls, SASS samples) of each pair.
# Libraries (built here, working tree of 262b4cc):
#   tile-compile examples/fp8_gemm_tunable.mlir -o f8/s1.so -D BN=128 -D STAGES=5 -D PINGPONG=true -D CLUSTER=1
#   ... f8/c2.so: CLUSTER=2; f8/s1s6.so, f8/c2s6.so: STAGES=6 PINGPONG=false, CLUSTER=1 / 2
#   tile-compile examples/gemm_tunable.mlir -o bf/c1.so (c2.so) -D BM=128 -D BN=256 -D BK=64
#     -D THREADS=256 -D STAGES=4 -D DTYPE=bf16 -D CLUSTER=1 (2)
# (The first call lacked gpu_torch.py, so only its bf16 half ran; the FP8
# half ran in a second call, the same script without the bf16 loops.)
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
log "== check FP8 c2 c2s6"
for v in c2 c2s6; do
  timeout 120 python3 fp8-torch.py --library f8/$v.so --kind tensor --function fp8_gemm --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
done
for round in 1 2; do
  for v in s1 c2 s1s6 c2s6; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library f8/$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
  for v in c1 c2; do
    log "== bench bf16 $v round $round"
    timeout 90 ./tile-gemm-bench --library=bf/$v.so --dtype=bf16 --shapes=4096x4096x4096,8192x8192x8192,2048x2048x2048 --runs=5 2>&1 | grep -E "^\||geomean" | tee -a $L
  done
done
for v in s1 c2 c2s6; do
  n=ncu-f8-$v
  timeout 150 ncu --clock-control none --kernel-name regex:fp8_gemm_kernel_tma --launch-skip 3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,sm__cycles_active.avg,smsp__cycles_active.avg \
    -o $OUT/$n python3 fp8-torch.py --library f8/$v.so --kind tensor --function fp8_gemm --bench 8192x8192x4096 --runs 1 --target-ms 5 > /dev/null 2>&1
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 > $OUT/$n-details.txt
  ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
  gzip -f $OUT/$n-sass.csv; rm -f $OUT/$n.ncu-rep
done
for v in c1 c2; do
  n=ncu-bf-$v
  timeout 150 ncu --clock-control none --kernel-name regex:gemm_kernel_tma --launch-skip 3 --launch-count 1 \
    --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum \
    -o $OUT/$n ./tile-gemm-bench --library=bf/$v.so --dtype=bf16 --shapes=8192x8192x8192 --runs=1 > /dev/null 2>&1
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 > $OUT/$n-details.txt; rm -f $OUT/$n.ncu-rep
done
