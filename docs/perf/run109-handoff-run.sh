#!/usr/bin/env bash
# Run 109: one-time copies handed off to the producer (acc00bc): checks,
# sanitizers; then speed against the division-only build (x108) and the
# build before both (x106).
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
if [[ "${1:-checks}" == checks ]]; then
CHECK_SHAPES=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 CHECK_OFFSETS=0,8,1 STEPS="host check sanitize" bash fa-matrix.sh 2>&1 | tail -42
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check d256"; timeout 200 python3 fa-sdpa.py --library x109/d256.so --head-dim 256 $A 2>&1 | grep -E "FAIL|checks pass|rror"
G="python3 fa-sdpa.py --library x109/gqa.so --function flash_attention_gqa_fwd --kv-group 4"
echo "== check gqa"; timeout 200 $G --check --check-shapes 1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
for t in memcheck racecheck synccheck; do echo "== $t gqa"; compute-sanitizer --tool $t --kernel-name kns=flash_attention $G --check --check-shapes 1:8:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
for t in memcheck racecheck synccheck; do echo "== $t d256"; compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x109/d256.so --head-dim 256 --check --check-shapes 1:2:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
exit 0
fi
if [[ "${1:-}" == bench ]]; then
G="python3 fa-sdpa.py --library x109/gqa.so --function flash_attention_gqa_fwd --kv-group 4"
for t in memcheck racecheck synccheck; do echo "== $t gqa"; compute-sanitizer --tool $t --kernel-name kns=flash_attention $G --check --check-shapes 1:8:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
for t in memcheck racecheck synccheck; do echo "== $t d256"; compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x109/d256.so --head-dim 256 --check --check-shapes 1:2:129 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
fi
S=16:16:1024,4:16:4096,1:32:16384
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
for round in 1 2; do
  B nc-div $round --library x108/nc.so --shapes=$S
  B nc-handoff $round --library x109/nc.so --shapes=$S
  B c-div $round --library x108/c.so --causal --shapes=4:16:4096,1:32:16384
  B c-handoff $round --library x109/c.so --causal --shapes=4:16:4096,1:32:16384
  B d64-div $round --library x108/d64.so --head-dim 64 --shapes=4:16:4096,1:32:16384
  B d64-handoff $round --library x109/d64.so --head-dim 64 --shapes=4:16:4096,1:32:16384
  B cd64-before $round --library x106/cd64.so --causal --head-dim 64 --shapes=4:16:4096,1:32:16384
  B cd64-handoff $round --library x109/cd64.so --causal --head-dim 64 --shapes=4:16:4096,1:32:16384
done
B d256-div 1 --library x108/d256.so --head-dim 256 --shapes=4:16:4096,1:16:16384
B d256-handoff 1 --library x109/d256.so --head-dim 256 --shapes=4:16:4096,1:16:16384
B gqa-div 1 --library x108/gqa.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
B gqa-handoff 1 --library x109/gqa.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
