#!/bin/bash
# Session 28, run 75: grouped-query attention (examples/flash_attention_gqa.mlir, BN = 128).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
F="timeout 200 python3 fa-sdpa.py --function flash_attention_gqa_fwd --kv-group 4"
CS=1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77
echo "== checks f16"; $F --library gqa/gqa_f16.so --dtype f16 --check --check-shapes $CS --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== checks bf16"; $F --library gqa/gqa_bf16.so --dtype bf16 --check --check-shapes $CS --offset 0,1 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== one line per check"; $F --library gqa/gqa_f16.so --dtype f16 --check --check-shapes 1:32:4096,2:8:1000 2>&1 | grep check
echo "== bench GQA (SDPA enable_gqa) f16, bf16; MHA f16 (cuDNN)"
$F --library gqa/gqa_f16.so --dtype f16 --bench --shapes 4:32:4096,1:32:16384 2>&1 | grep -E "^\||SDPA|rror"
$F --library gqa/gqa_bf16.so --dtype bf16 --bench --shapes 4:32:4096,1:32:16384 2>&1 | grep -E "^\||SDPA|rror"
timeout 200 python3 fa-sdpa.py --library gqa/mha_f16.so --dtype f16 --bench --shapes 4:32:4096 2>&1 | grep -E "^\||rror"
echo "== wrong group: K with as many heads as Q"
python3 - <<'PY'
import ctypes, torch, sys
sys.argv=["x"]
import importlib.util
spec=importlib.util.spec_from_file_location("fa","fa-sdpa.py"); fa=importlib.util.module_from_spec(spec); spec.loader.exec_module(fa)
fn, rt = fa.load("gqa/gqa_f16.so", False, "flash_attention_gqa_fwd")
q=torch.randn(1,8,128,128,device="cuda",dtype=torch.float16); k=torch.randn_like(q); v=torch.randn_like(q); o=torch.full_like(q,float("nan"))
try:
    fa.call(fn, rt, q, k, v, o); print("no error: FAIL")
except RuntimeError as e:
    torch.cuda.synchronize(); print(e, "| O untouched:", bool(torch.isnan(o).all()))
PY
echo "== memcheck, racecheck GQA"
timeout 150 compute-sanitizer --tool memcheck python3 fa-sdpa.py --function flash_attention_gqa_fwd --kv-group 4 --library gqa/gqa_f16.so --dtype f16 --check --check-shapes 1:8:129,1:4:300 --offset 0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass"
timeout 150 compute-sanitizer --tool racecheck python3 fa-sdpa.py --function flash_attention_gqa_fwd --kv-group 4 --library gqa/gqa_f16.so --dtype f16 --check --check-shapes 1:8:256 2>&1 | grep -E "RACECHECK SUMMARY|checks pass"
