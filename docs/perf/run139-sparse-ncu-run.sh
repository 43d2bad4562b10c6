#!/bin/bash
# Run 139: where the 2:4 sparse GEMM's cycles go (ncu): shared-memory bank
# traffic of ours (sparse and dense) and cuSPARSELt's.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
O=${OUT:-/tmp}; L=$O/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
ncu --query-metrics --chip gh100 2>/dev/null | grep -E "^l1tex__data_bank|^l1tex__data_pipe_lsu_wavefronts_mem_shared |^smsp__inst_executed_pipe_uniform|^l1tex__throughput " | tee -a $L
M=""
for m in l1tex__data_bank_reads l1tex__data_bank_writes l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__throughput; do
  ncu --query-metrics --chip gh100 2>/dev/null | grep -q "^$m " && M="$M,$m.avg.pct_of_peak_sustained_elapsed,$m.sum"
done
M=${M#,}; echo "metrics: $M" | tee -a $L
prof() { # name regex args...
  local n=$1 re=$2; shift 2
  timeout 150 ncu --clock-control none --kernel-name regex:"$re" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
    ${M:+--metrics $M} -o $O/$n "$@" > $O/$n.run.log 2>&1
  ncu -i $O/$n.ncu-rep --page details > $O/$n-details.txt 2>&1
  ncu -i $O/$n.ncu-rep --page raw --csv 2>/dev/null | python3 -c "
import csv,sys
r=list(csv.reader(sys.stdin))
if len(r)>2:
  h,v=r[0],r[2]
  for a,b in zip(h,v):
    if a.startswith(('l1tex__data_bank','l1tex__data_pipe_lsu_wavefronts_mem_shared','l1tex__throughput','gpu__time_duration','sm__cycles_elapsed.avg','Kernel Name','sm__throughput','smsp__cycles_active')): print(a,b)
" > $O/$n-raw.txt 2>&1
  rm -f $O/$n.ncu-rep
  echo "== $n" | tee -a $L; head -3 $O/$n-details.txt | tee -a $L; grep -E "Kernel Name|Duration|SM Frequency|Throughput|Shared|Bank" $O/$n-details.txt | head -30 | tee -a $L; cat $O/$n-raw.txt | tee -a $L
}
S="python3 sparse-torch.py --dtype f16 --out f16 --runs 1"
prof sparse-4096 "gemm_sp_kernel" $S --library sp/sp_128x256_k128_s2_if0.so --bench 4096x4096x4096
prof dense-4096 "^gemm_kernel" $S --library sp/sp_128x256_k128_s2_if0.so --dense-library sp/dense_f16.so --bench 4096x4096x4096
prof sparse256x128-4096 "gemm_sp_kernel" $S --library sp/sp_256x128_k128_s3_if1.so --bench 4096x4096x4096
prof cusparselt-8192 "xmma|cutlass|Sparse|sparse" $S --library sp/sp_128x256_k128_s2_if0.so --semi --bench 8192x8192x8192
prof sparse-8192 "gemm_sp_kernel" $S --library sp/sp_128x256_k128_s2_if0.so --bench 8192x8192x8192
echo "== done" | tee -a $L
