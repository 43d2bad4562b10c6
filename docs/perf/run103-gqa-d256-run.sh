#!/usr/bin/env bash
# Run 103: tile-rotate-loops on grouped-query attention (BN = 128, H_q 32,
# H_kv 8: rotated by default, kept as written with tile.rotate = false, and
# the shipped GQA example at BN = 64) and on head dimension 256 at BN = 64
# (declined by default; tile.rotate = true forces it): checks, sanitizers,
# speed against SDPA in the same process, three rounds alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
G="timeout 200 python3 fa-sdpa.py --function flash_attention_gqa_fwd --kv-group 4 --dtype f16"
echo "== check gqa128"; $G --library x103/gqa128.so --check --check-shapes 1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== memcheck gqa128"; timeout 150 compute-sanitizer --tool memcheck --kernel-name regex:flash_attention $G --library x103/gqa128.so --check --check-shapes 1:8:129,1:4:300 --offset 0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass"
echo "== racecheck gqa128"; timeout 150 compute-sanitizer --tool racecheck --kernel-name regex:flash_attention $G --library x103/gqa128.so --check --check-shapes 1:8:256 2>&1 | grep -E "RACECHECK SUMMARY|checks pass"
echo "== synccheck gqa128"; timeout 150 compute-sanitizer --tool synccheck --kernel-name regex:flash_attention $G --library x103/gqa128.so --check --check-shapes 1:8:256 2>&1 | grep -E "ERROR SUMMARY|checks pass"
D="timeout 200 python3 fa-sdpa.py --head-dim 256 --dtype f16"
echo "== check d256rot"; $D --library x103/d256rot.so --check --check-shapes 1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
for round in 1 2 3; do
  for lib in gqa64 gqa128nr gqa128; do
    echo "== bench $lib round $round"; $G --library x103/$lib.so --bench --shapes 4:32:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
  for lib in d256 d256rot; do
    echo "== bench $lib round $round"; $D --library x103/$lib.so --bench --shapes 4:16:4096,1:16:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
