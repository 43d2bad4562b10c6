#!/bin/bash
# Run 197: the FP8 kernels with the epilogue's scalars read before the main
# loop (tile-hoist-epilogue-loads) and each consumer warpgroup storing its
# own rows (store_barrier): fp8-run.sh on the new bundle (every scale kind,
# offsets, sanitizers), racecheck and synccheck where blocks take several
# tiles, then A/B against the same source with the two decisions turned off
# (ab/nostore: tile.warpgroup_stores = false; ab/old: both off).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run197.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
PART=${1:-ab}
if [[ $PART == ab ]]; then
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in new old nostore; do
    for kind in tensor rowwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
for tool in racecheck synccheck; do
  for kind in tensor rowwise; do
    echo "== $tool $kind 2176x2048x256 (272 tiles: blocks take two or three)" | tee -a $L
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library ab/new/libfp8_gemm.so --kind $kind --check 2176x2048x256 --offsets 0 2>&1 | tail -3 | tee -a $L
  done
done
fi
if [[ $PART == full ]]; then
echo "== fp8-run.sh" | tee -a $L
timeout 330 bash fp8-run.sh > $OUT/run197-fp8-run.log 2>&1; echo "fp8-run exit $?" | tee -a $L
sed -n '/=== summary/,$p' $OUT/run197-fp8-run.log | tee -a $L
fi
