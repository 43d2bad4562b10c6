#!/bin/bash
# Run 174: programmatic dependent launch as an experiment (262b4cc plus two
# environment switches, not committed): TILE_PDL_EXPERIMENT=1 at compile
# time put griddepcontrol.launch_dependents and griddepcontrol.wait at the
# entry of every kernel (pdl/ex.so: the bf16 example; pdl/f8.so:
# examples/fp8_gemm.mlir), and TILE_PDL=1 at run time made the runtime
# launch every kernel through mgpuLaunchKernel with the programmatic stream
# serialization attribute. Against the same sources compiled plainly
# (alt/ex.so, f8/ex.so), each against cuBLAS / cuBLASLt in its own process.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
SW=2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048
for off in 0 1; do log "== check pdl offset $off"
TILE_PDL=1 timeout 150 ./tile-gemm-bench --library=pdl/ex.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023,5120x5120x5120 --offset=$off 2>&1 | grep -E "PASS|FAIL|summary" | tee -a $L; done
log "== synccheck pdl"; TILE_PDL=1 timeout 150 compute-sanitizer --tool synccheck --error-exitcode 3 ./tile-gemm-bench --library=pdl/ex.so --dtype=bf16 --check --shapes=513x257x300 --no-cpu-ref 2>&1 | tail -2 | tee -a $L
log "== memcheck pdl"; TILE_PDL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 ./tile-gemm-bench --library=pdl/ex.so --dtype=bf16 --check --shapes=513x257x300 --no-cpu-ref 2>&1 | tail -2 | tee -a $L
for round in 1 2; do
  log "== sweep ex round $round"
  timeout 200 ./tile-gemm-bench --library=alt/ex.so --dtype=bf16 --shapes=$SW --runs=5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  log "== sweep pdl round $round"
  TILE_PDL=1 timeout 200 ./tile-gemm-bench --library=pdl/ex.so --dtype=bf16 --shapes=$SW --runs=5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384,2048x2048x2048"
log "== check fp8 pdl"; TILE_PDL=1 timeout 120 python3 fp8-torch.py --library pdl/f8.so --kind tensor --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
for round in 1 2; do
  log "== fp8 ex round $round"; timeout 90 python3 fp8-torch.py --library f8/ex.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  log "== fp8 pdl round $round"; TILE_PDL=1 timeout 90 python3 fp8-torch.py --library pdl/f8.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done
log "== done $(date -u)"
