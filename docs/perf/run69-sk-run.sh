#!/bin/bash
# Session 28, run 69: split-K (tile-split-k) on the example and two epilogue kernels.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G="timeout 200 python3 gemm-torch.py"
SK=1x8192x4096,8192x16x4096,64x64x65536,64x64x4096,100x300x5000,1000x1000x1000,256x256x65536
ODD=1x1x1,3x5x7,128x128x32,256x256x96,4095x4097x1023,129x65x1033
echo "== checks bf16 (split-K on), same bits"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check $SK,$ODD --offsets 0,1,8 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
echo "== checks f16"
$G --library sk/gemm_f16.so --kind gemm --dtype f16 --check $SK,$ODD --offsets 0,1 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
echo "== checks bias_relu, f32 out"
$G --library sk/bias_relu.so --kind bias_relu --dtype bf16 --check $SK --offsets 0,1 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
$G --library sk/f32.so --kind gemm --function gemm_f32 --dtype bf16 --out-dtype f32 --check $SK --offsets 0,1 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
echo "== one line per check (bf16, offset 0)"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check $SK --offsets 0 --same-bits 2>&1 | tail -8
echo "== bench bf16: split-K, then without"
B=1x8192x4096,8192x16x4096,64x64x65536,256x256x65536,1024x1024x8192,512x512x16384,1000x1000x1000,4096x4096x4096
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --bench $B --runs 7 2>&1 | grep -E "^\||geomean|rror"
$G --library sk/gemm_bf16_nosplit.so --kind gemm --dtype bf16 --bench $B --runs 7 2>&1 | grep -E "^\||geomean|rror"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --bench $B --runs 7 2>&1 | grep -E "^\||geomean|rror"
echo "== memcheck split path"
timeout 150 compute-sanitizer --tool memcheck python3 gemm-torch.py --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check 64x64x4096,1000x1000x1000,100x300x5000 --offsets 1 2>&1 | grep -E "ERROR SUMMARY|passed"
echo "== racecheck"
timeout 150 compute-sanitizer --tool racecheck python3 gemm-torch.py --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check 64x64x4096 --offsets 0 2>&1 | grep -E "RACECHECK SUMMARY|passed"
echo "== synccheck"
timeout 150 compute-sanitizer --tool synccheck python3 gemm-torch.py --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check 64x64x4096 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|passed"
