#!/bin/bash
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" PYTHONUNBUFFERED=1
O=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $O/log
timeout 200 ncu --clock-control none --kernel-name regex:"sm90|gemm|xmma|cutlass|Kernel" --launch-skip 2 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight -o $O/lt python3 run145-cublaslt-fp8.py > $O/ncu.log 2>&1
ncu -i $O/lt.ncu-rep --page details > $O/cublaslt-fp8-details.txt 2>&1
ncu -i $O/lt.ncu-rep --page source --print-source sass --csv > $O/cublaslt-fp8-sass.csv 2>&1
gzip -f $O/cublaslt-fp8-sass.csv; rm -f $O/lt.ncu-rep
head -3 $O/cublaslt-fp8-details.txt | tee -a $O/log; grep -E "Duration|SM Frequency|Compute \(SM\)|Warp Cycles Per Issued" $O/cublaslt-fp8-details.txt | tee -a $O/log; tail -3 $O/ncu.log | tee -a $O/log
