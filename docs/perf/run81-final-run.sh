#!/usr/bin/env bash
# Session 29 final build: gpu-run.sh, the split tail against the CPU's fp64
# reference at offsets, sanitizers on split shapes, the f16 sweep.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
echo "== gpu-run.sh"
STEP_TIMEOUT=120 bash gpu-run.sh > gpu-run.out 2>&1; echo "gpu-run rc=$?"; grep -E "^(PASS|FAIL|SKIP|XFAIL)|summary|passed|failed" gpu-run.out | tail -60
for off in 1 8; do
  echo "== split tail, CPU fp64 reference, offset $off"
  timeout 150 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --check --no-cublas --shapes=5120x5120x5120,2100x2000x3000,4095x4097x3001 --offset=$off | grep -E "check|PASS|FAIL|fail" | tail -5
  timeout 100 ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x1000,2100x2000x300,2100x2000x64,4095x4097x1023 --offset=$off | grep -E "check|PASS|FAIL|fail" | tail -5
done
echo "== sanitizers on split shapes"
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --check --no-cublas --offset=1 --shapes=2100x2000x3000 2>&1 | tail -3
for tool in memcheck racecheck synccheck; do
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x300 2>&1 | tail -3
done
echo "== sweep bf16"
timeout 100 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
echo "== sweep f16"
timeout 100 ./tile-gemm-bench --library=aot/f16/libgemm.so --dtype=f16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
