#!/bin/bash
# Run 140: SASS with stall samples of our 2:4 sparse GEMM and cuSPARSELt's.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
O=${OUT:-/tmp}; L=$O/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
prof() { # name regex args...
  local n=$1 re=$2; shift 2
  timeout 200 ncu --clock-control none --kernel-name regex:"$re" --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    -o $O/$n "$@" > /dev/null 2>&1
  ncu -i $O/$n.ncu-rep --page details > $O/$n-details.txt 2>&1
  ncu -i $O/$n.ncu-rep --page source --print-source sass --csv > $O/$n-sass.csv 2>&1
  gzip -f $O/$n-sass.csv
  rm -f $O/$n.ncu-rep
  echo "== $n" | tee -a $L; grep -E "Duration|SM Frequency|Compute \(SM\)|Warp Cycles Per Issued" $O/$n-details.txt | tee -a $L
}
S="python3 sparse-torch.py --dtype f16 --out f16 --runs 1"
prof sparse "gemm_sp_kernel" $S --library sp/sp_128x256_k128_s2_if0.so --bench 4096x4096x4096
prof cusparselt "xmma|cutlass|Sparse|sparse" $S --library sp/sp_128x256_k128_s2_if0.so --semi --bench 8192x8192x8192
prof sparse-k64-if "gemm_sp_kernel" $S --library sp/sp_128x256_k64_s4_if1.so --bench 4096x4096x4096
echo "== done" | tee -a $L
