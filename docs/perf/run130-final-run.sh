#!/usr/bin/env bash
# Run 130: the session's final build (gpu-run.sh), and ncu of the default
# FP8 per-tensor GEMM (128 x 256, 4 stages) at 4096^3: where its time goes.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,serial,driver_version,clocks.max.sm --format=csv
STEP_TIMEOUT=120 bash gpu-run.sh > $OUT/gpu-run.log 2>&1
echo "gpu-run exit $?"
grep -E "^(PASS|FAIL|SKIP|XFAIL)|summary|geomean|4096x4096x4096 \||8192x8192x8192 \|" $OUT/gpu-run.log | tail -40
lib=$(ls aot-fp8/e4m3/*.so | head -1)
n=fp8-default
timeout 200 ncu --clock-control none --kernel-name regex:fp8_gemm_tensor_kernel_tma --launch-skip 3 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis \
  -o $OUT/$n python3 fp8-torch.py --library $lib --kind tensor --bench 4096x4096x4096 --runs 1 --target-ms 5 2>&1 | grep -v "^==PROF==" | tail -3
ncu -i $OUT/$n.ncu-rep --page details 2>&1 | tail -150 > $OUT/$n-details.txt
ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
gzip -f $OUT/$n-sass.csv
rm -f $OUT/$n.ncu-rep
grep -E "Duration|SM Frequency|Throughput|Issue|Warp Cycles|Elapsed" $OUT/$n-details.txt | head -20
