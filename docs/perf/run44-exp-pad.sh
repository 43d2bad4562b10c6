#!/usr/bin/env bash
# The copy padding on the GPU: softmax (-inf) and the pipelined cp.async
# padding, through the Python package; then the three sanitizers.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 python3 python-gpu.py --package "$PWD/python" \
  --softmax py/libsoftmax.so --pad-copy py/libpad.so 2>&1 | tee "$OUT/pad.log" | grep -v "^PASS"
for tool in memcheck racecheck synccheck; do
  echo "== $tool"
  timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 python3 python-gpu.py \
    --package "$PWD/python" --softmax py/libsoftmax.so --pad-copy py/libpad.so --no-speed \
    > "$OUT/san-$tool.log" 2>&1
  echo "rc=$?"; grep -E "ERROR SUMMARY|checks passed|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -3
done
