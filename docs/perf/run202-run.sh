#!/bin/bash
# Run 202: the last wave split with the tail kernel's whole tiles in the
# kernel's own code (the part in a copy of the tile body after the tile
# loop), ab/split built with split-tail-min-share=0
# split-tail-min-iterations=8 so that the split is taken at the 8192 bar
# shapes; against the bundle's default (aot-fp8/e4m3, whole last wave).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run202.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
S=ab/split/libfp8_gemm.so
echo "== checks" | tee -a $L
for kind in tensor rowwise; do
  timeout 120 python3 fp8-torch.py --library $S --kind $kind --check 896x2432x4096,900x2431x4000,896x2432x2048,1000x1000x1000,4095x4097x1023,8192x16x4096 --offsets 0,1 2>&1 | grep -E "FAIL|checks passed" | sed "s/^/$kind: /" | tee -a $L
done
for tool in memcheck racecheck synccheck; do
  echo "== $tool 896x2432x2048" | tee -a $L
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library $S --kind tensor --check 896x2432x2048 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|checks passed|FAIL" | tee -a $L
done
echo "== ncu durations 8192^3 and 8192x8192x4096 (split)" | tee -a $L
for s in 8192x8192x8192 8192x8192x4096; do
  timeout 90 ncu --kernel-name "regex:fp8_gemm_tensor" --launch-skip 3 --launch-count 3 --metrics gpu__time_duration.sum \
    python3 fp8-torch.py --library $S --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time" | tee -a $L
  timeout 90 ncu --kernel-name "regex:fp8_gemm_tensor" --launch-skip 3 --launch-count 1 --metrics gpu__time_duration.sum \
    python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time" | tee -a $L
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/split; do
    for kind in tensor rowwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
echo "== sass of the tail kernel: local memory" | tee -a $L
cuobjdump -sass ab/sass/tail.cubin > $OUT/tail.sass 2>&1
grep -cE "STL|LDL" $OUT/tail.sass | tee -a $L
grep -nE "STL|LDL|SETMAXNREG|QGMMA|EXIT|UTMALDG|SYNCS" $OUT/tail.sass | awk '{$NF=""; print}' | cut -c1-100 > $OUT/tail-landmarks.txt
