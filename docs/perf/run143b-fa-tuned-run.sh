#!/bin/bash
# Run 143b: the grouped-query source timed by tile-tune-time (its K and V
# sized by "4*BHKV"), and the 128-key causal and GQA libraries checked and
# benchmarked against cuDNN and the 64-key examples.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
O=${OUT:-/tmp}; L=$O/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
timeout 200 ./tile-tune-time tw/gqa_sm_90a --shapes 1024x64,4096x32,16384x8 --runs 5 --cache $O/gqa.cache --save-timings $O/gqa-timings.txt 2>&1 | tail -5 | tee -a $L
cat $O/gqa-timings.txt | tee -a $L
C="--check --offset 0,8,1 --check-shapes 1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for lib in causal_tuned causal64; do
  timeout 200 python3 fa-sdpa.py --library fa/$lib.so --causal $C > /tmp/c.log 2>&1; log "check $lib: rc=$? PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"; grep -E "FAIL|rror" /tmp/c.log | head -3 | tee -a $L
done
G="--function flash_attention_gqa_fwd --kv-group 4"
timeout 200 python3 fa-sdpa.py --library fa/gqa128.so $G --check --offset 0,8,1 --check-shapes 1:4:1,1:4:77,1:8:129,2:4:1000,1:4:4096 > /tmp/c.log 2>&1; log "check gqa128: rc=$? PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"; grep -E "FAIL|rror" /tmp/c.log | head -3 | tee -a $L
for r in 1 2; do
  for lib in causal_tuned causal64; do timeout 100 python3 fa-sdpa.py --library fa/$lib.so --causal --bench --shapes 4:16:4096,1:32:16384 2>&1 | grep -iE "tflop|ratio|rror" | sed "s/^/$lib: /" | tee -a $L; done
  for lib in gqa128 gqa64; do timeout 100 python3 fa-sdpa.py --library fa/$lib.so $G --bench --shapes 4:32:4096,1:32:16384 2>&1 | grep -iE "tflop|ratio|rror" | sed "s/^/$lib: /" | tee -a $L; done
done
log "== done"
