#!/bin/bash
# Session 28, run 76: FlashAttention at head dimension 256 (scripts/fa-variant.py --head-dim 256, BN = 64).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
F="timeout 200 python3 fa-sdpa.py --head-dim 256"
CS=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096
echo "== checks nc f16"; $F --library d256/nc_f16.so --dtype f16 --check --check-shapes $CS --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== checks nc bf16"; $F --library d256/nc_bf16.so --dtype bf16 --check --check-shapes $CS --offset 0,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== checks causal f16"; $F --library d256/causal_f16.so --causal --dtype f16 --check --check-shapes $CS --offset 0,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== one line"; $F --library d256/nc_f16.so --dtype f16 --check --check-shapes 1:2:4096 2>&1 | grep "^check"
echo "== bench"
$F --library d256/nc_f16.so --dtype f16 --bench --shapes 4:16:4096,1:16:16384 2>&1 | grep -E "^\||SDPA|rror"
$F --library d256/nc_bf16.so --dtype bf16 --bench --shapes 4:16:4096 2>&1 | grep -E "^\||SDPA|rror"
$F --library d256/causal_f16.so --causal --dtype f16 --bench --shapes 4:16:4096 2>&1 | grep -E "^\||SDPA|rror"
echo "== memcheck"; timeout 150 compute-sanitizer --tool memcheck python3 fa-sdpa.py --head-dim 256 --library d256/nc_f16.so --dtype f16 --check --check-shapes 1:2:129,1:2:300 --offset 0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass"
echo "== racecheck (ours only)"; timeout 150 compute-sanitizer --tool racecheck --kernel-name regex:flash_attention python3 fa-sdpa.py --head-dim 256 --library d256/nc_f16.so --dtype f16 --check --check-shapes 1:2:256 2>&1 | grep -E "RACECHECK SUMMARY|checks pass"
echo "== synccheck (ours only)"; timeout 150 compute-sanitizer --tool synccheck --kernel-name regex:flash_attention python3 fa-sdpa.py --head-dim 256 --library d256/nc_f16.so --dtype f16 --check --check-shapes 1:2:256 2>&1 | grep -E "ERROR SUMMARY|checks pass"
