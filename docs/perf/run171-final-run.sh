#!/bin/bash
# Run 171: the session's final build (6d84575): gpu-run.sh and fp8-run.sh.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader
STEP_TIMEOUT=120 bash gpu-run.sh > $OUT/gpu-run.log 2>&1
echo "gpu-run exit $?"
grep -E "^\| |all steps|summary" $OUT/gpu-run.log | tail -50
STEP_TIMEOUT=150 bash fp8-run.sh > $OUT/fp8-run.log 2>&1
echo "fp8-run exit $?"
tail -35 $OUT/fp8-run.log
