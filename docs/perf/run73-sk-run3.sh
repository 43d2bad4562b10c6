#!/bin/bash
# Session 28, run 73: the runtime's pool only inside compiled host calls.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
./tile-runtime-gpu-test 2>&1 | tail -4
G="timeout 200 python3 gemm-torch.py"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --check 1x8192x4096,64x64x65536,512x512x16384,1000x1000x1000,3x5x7 --offsets 0,1 --same-bits 2>&1 | grep -E "FAIL|passed|rror"
$G --library sk/gemm_bf16.so --kind gemm --dtype bf16 --bench 64x64x65536,256x256x65536,1024x1024x8192,512x512x16384,1000x1000x1000 --runs 5 2>&1 | grep -E "^\||geomean|rror"
./gemm-host --stream 2>&1 | tail -2
