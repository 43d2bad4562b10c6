#!/usr/bin/env bash
# Session 29: FP8 and 2:4 sparse kernels with their last wave split; fp8-run.sh.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
for kind in tensor rowwise; do
  echo "== fp8 $kind split tail"
  timeout 150 python3 fp8-torch.py --library sk/fp8/libfp8_gemm.so --kind $kind --check 2100x2000x1000,4095x4097x1023,5120x5120x2048 --offsets 0,16,1 2>&1 | tail -4
done
echo "== fp8 kernels launched at 2100x2000x1000 (ncu)"
timeout 100 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum python3 fp8-torch.py --library sk/fp8/libfp8_gemm.so --kind tensor --check 2100x2000x1000 --offsets 0 2>&1 | grep -E "^  [a-z_0-9]+ \(" | sort | uniq -c | head
echo "== sparse split tail"
timeout 150 python3 sparse-torch.py --library sk/sparse/libgemm_sparse.so --check 2100x2000x1000,4095x4097x1023 --offsets 0,1,8 2>&1 | tail -4
timeout 100 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum python3 sparse-torch.py --library sk/sparse/libgemm_sparse.so --check 2100x2000x1000 --offsets 0 2>&1 | grep -E "^  [a-z_0-9]+ \(" | sort | uniq -c | head
echo "== memcheck fp8 split"
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 python3 fp8-torch.py --library sk/fp8/libfp8_gemm.so --kind tensor --check 2100x2000x1000 --offsets 0,1 2>&1 | tail -3
echo "== fp8-run.sh"
STEP_TIMEOUT=120 bash fp8-run.sh > fp8-run.out 2>&1; echo "fp8-run rc=$?"; tail -45 fp8-run.out
