#!/usr/bin/env bash
# The session's build (8-part tail, sliced reductions): gpu-run.sh, the
# sweeps (bf16 twice, f16), the tuner's timings.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
echo "== tuner timings"
timeout 200 ./tile-tune-time tune --shapes "$SWEEP" --cache tune/h200.cache 2>&1 | grep -E "winner|cache|fail"
echo "== gpu-run.sh"
STEP_TIMEOUT=120 timeout 330 bash gpu-run.sh > gpu-run.out 2>&1; echo "gpu-run rc=$?"; grep -E "^(PASS|FAIL|SKIP|XFAIL)|summary|passed|failed" gpu-run.out | tail -40
cp gpu-run.out "$OUT/gpu-run.log" 2>/dev/null
echo "== sweep bf16 (1)"
timeout 100 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
echo "== sweep f16"
timeout 100 ./tile-gemm-bench --library=aot/f16/libgemm.so --dtype=f16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
