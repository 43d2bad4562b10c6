#!/usr/bin/env bash
# Run 112: the session's final build (full bundle): gpu-run.sh, and the
# FP8 quantization kernel (its row-scale division now through the exact
# shared-reciprocal path) against torch, alone and chained into the
# block-scaled GEMM, with memcheck.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
STEP_TIMEOUT=120 bash gpu-run.sh 2>&1 | tail -40
S=1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023
echo "== quantize-chain"; timeout 200 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --quantize aot-fp8/quantize/libfp8_quantize.so --check $S --offsets 0,1 2>&1 | tail -4
echo "== memcheck quantize-chain"; compute-sanitizer --tool memcheck python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --quantize aot-fp8/quantize/libfp8_quantize.so --check 3x5x7,128x128x128 --offsets 0,1 2>&1 | grep -E "SUMMARY|pass|FAIL|rror" | tail -3
