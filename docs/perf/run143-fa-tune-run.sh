#!/bin/bash
# Run 143: tile-tune-time of the causal and grouped-query FlashAttention
# sources with their key block as a parameter (64 or 128), sm_90a.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
O=${OUT:-/tmp}; L=$O/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
timeout 250 ./tile-tune-time tw/causal_sm_90a --shapes 256x1024,64x4096,32x16384 --runs 5 --cache $O/causal.cache --save-timings $O/causal-timings.txt 2>&1 | tail -8 | tee -a $L
timeout 250 ./tile-tune-time tw/gqa_sm_90a --shapes 1024x64,4096x32,16384x8 --runs 5 --cache $O/gqa.cache --save-timings $O/gqa-timings.txt 2>&1 | tail -8 | tee -a $L
cat $O/causal-timings.txt $O/gqa-timings.txt | tee -a $L
