#!/bin/bash
# Session 28, run 70: split-K with the runtime's workspace pool.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
G="timeout 200 python3 gemm-torch.py"
SK=1x8192x4096,8192x16x4096,64x64x65536,64x64x4096,100x300x5000,1000x1000x1000,256x256x65536
echo "== checks bf16 (split-K on), same bits"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check $SK,1x1x1,3x5x7,4095x4097x1023 --offsets 0,1,8 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
echo "== bench bf16: split-K, without, split-K"
B=1x8192x4096,8192x16x4096,64x64x65536,256x256x65536,1024x1024x8192,512x512x16384,1000x1000x1000,1024x1024x1024,4096x4096x4096
for L in gemm_bf16 gemm_bf16_nosplit gemm_bf16; do
$G --library sk/$L.so --kind gemm --dtype bf16 --bench $B --runs 7 2>&1 | grep -E "^\||geomean|rror"
done
echo "== bench bias_relu and f32 out (split-K)"
$G --library sk/bias_relu.so --kind bias_relu --dtype bf16 --bench 1x8192x4096,8192x16x4096,64x64x65536,1000x1000x1000 --runs 5 2>&1 | grep -E "^\||geomean|rror"
$G --library sk/f32.so --kind gemm --function gemm_f32 --dtype bf16 --out-dtype f32 --bench 1x8192x4096,8192x16x4096,64x64x65536,1000x1000x1000 --runs 5 2>&1 | grep -E "^\||geomean|rror"
