#!/bin/bash
# Run 220b: run 220's profiles of our kernels again, tarred (the device tool
# returns at most 8 files). Run 220: where a consumer warp's time goes:
# ncu SASS source counters (instructions executed and warp stall samples
# per SASS line) of our FP8 per-tensor kernel (the default, alone and in
# clusters of two) and of cuBLASLt's, at 4096^3 (1024 tiles of 128 x 128,
# 7.76 a block) and 8192x8192x4096.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run220.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
prof() {
  local name=$1 lib=$2 regex=$3 skip=$4 shape=$5
  timeout 200 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip $skip --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    --metrics smsp__inst_executed.sum,sm__cycles_elapsed.max,gpu__time_duration.sum \
    -o $OUT/$name python3 fp8-torch.py --library $lib --kind tensor --bench $shape --runs 1 --target-ms 5 > $OUT/$name-run.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --print-source sass --csv > $OUT/$name-sass.csv 2>&1
  gzip -f $OUT/$name-sass.csv; rm -f $OUT/$name.ncu-rep
  grep -E "Duration|sm__cycles_elapsed.max|Executed Instructions  |Compute \(SM\) Throughput" $OUT/$name-details.txt | sed "s/^/$name: /" | tee -a $L
}
prof ours-4k aot-fp8/e4m3/libfp8_gemm.so fp8_gemm_tensor 2 4096x4096x4096
prof ours-c2-4k ab/c2/libfp8_gemm.so fp8_gemm_tensor 2 4096x4096x4096
prof ours-8k aot-fp8/e4m3/libfp8_gemm.so fp8_gemm_tensor 1 8192x8192x4096

cd $OUT && tar czf run220.tgz ours-* run220.log && rm -f ours-*
ls -la $OUT
