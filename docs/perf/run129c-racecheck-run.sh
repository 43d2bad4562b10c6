#!/usr/bin/env bash
# Run 129c: racecheck as fp8-run.sh runs it (no kernel filter) on the
# 5-stage FP8 GEMM with the new decode, and on the 4-stage one.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
for lib in fp8s5/v2.so fp8s5/s4.so; do
  for shapes in 129x65x300 256x512x1024; do
    echo "== racecheck $lib $shapes"
    timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 python3 fp8-torch.py --library $lib --kind tensor --function fp8_gemm --check $shapes --offsets 0 2>&1 | grep -E "SUMMARY|checks passed|Error|error" | head -5
    echo "exit ${PIPESTATUS[0]}"
  done
done
