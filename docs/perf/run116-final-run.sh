#!/usr/bin/env bash
# Run 116: the session's final build (full bundle of its commit):
# gpu-run.sh (first call); then (second call, "extra") the FP8 quantize
# chain, GQA and D256 (checks, sanitizers), the persistent D128 of run 115
# under the sanitizers, and the default GEMM against the bundle of bc80d64.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
if [[ ${1:-} != extra ]]; then
  STEP_TIMEOUT=120 bash gpu-run.sh 2>&1 | tail -60
  exit
fi
cuobjdump -sass fa.cubin > "$OUT/fa.sass" 2>&1 && echo "== fa.cubin SASS: $(grep -c MUFU.EX2 "$OUT/fa.sass") MUFU.EX2"
S=1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023
echo "== quantize-chain"; timeout 200 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --quantize aot-fp8/quantize/libfp8_quantize.so --check $S --offsets 0,1 2>&1 | tail -4
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check d256"; timeout 200 python3 fa-sdpa.py --library x117/d256.so --head-dim 256 $A 2>&1 | grep -E "FAIL|checks pass|rror"
G="python3 fa-sdpa.py --library x117/gqa.so --function flash_attention_gqa_fwd --kv-group 4"
echo "== check gqa"; timeout 200 $G --check --check-shapes 1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
for t in memcheck racecheck synccheck; do
  echo "== $t gqa"; timeout 200 compute-sanitizer --tool $t --kernel-name kns=flash_attention $G --check --check-shapes 1:8:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -3
  echo "== $t d256"; timeout 200 compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x117/d256.so --head-dim 256 --check --check-shapes 1:2:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -3
  echo "== $t persistent d128"; timeout 200 compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x116/pd128.so --check --check-shapes 1:2:300,2:3:1000 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -3
done
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x1024,8192x8192x1024,4096x4096x16384,16384x4096x4096,4096x14336x4096"
for round in 1 2; do
  for n in old/aot-bf16/libgemm.so aot/bf16/libgemm.so; do
    echo "== bench $n round $round"
    timeout 150 ./tile-gemm-bench --library=$n --dtype=bf16 --shapes="$SWEEP" --runs=3 | grep "^| [0-9]"
  done
done
echo "== fa-matrix"
CHECK_SHAPES=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 CHECK_OFFSETS=0,8,1 STEPS="host check sanitize" timeout 400 bash fa-matrix.sh 2>&1 | tail -25
