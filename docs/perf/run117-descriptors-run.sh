#!/usr/bin/env bash
# Run 117: wgmma descriptors from the dynamic shared memory's name, made
# next to each gemm (uniform registers, no R2UR): exp/new against exp/old
# (HEAD e5e01d5), FlashAttention variants and the bf16 GEMM example.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
for c in exp/sass/*.cubin; do cuobjdump -sass $c | gzip > $OUT/$(basename $c .cubin).sass.gz; done
E=exp/new
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
C() { echo "== check $1"; shift; timeout 150 python3 fa-sdpa.py "$@" $A 2>&1 | grep -E "FAIL|checks pass|rror"; }
C d128 --library $E/d128/lib.so
C pd128 --library $E/pd128/lib.so
C causal --library $E/causal/lib.so --causal
C pcausal --library $E/pcausal/lib.so --causal
C d256 --library $E/d256/lib.so --head-dim 256
C gqa --library $E/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4
echo "== gemm check"; timeout 120 ./tile-gemm-bench --check --library=$E/gemm/libgemm.so --dtype=bf16 --shapes=1x1x1,129x65x33,1000x1000x1000,4095x4097x1023,4096x4096x512 2>&1 | grep -E "^\||FAIL|rror" 
timeout 60 ./tile-gemm-bench --check --library=$E/gemm/libgemm.so --dtype=bf16 --offset=1 --shapes=129x65x33,1000x1000x1000 2>&1 | grep -E "^\||FAIL|rror"
B() { echo "== bench $1 $2"; shift 2; timeout 120 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for t in old new; do B d128 $t --library exp/$t/d128/lib.so $S; done
  for t in old new; do B pd128 $t --library exp/$t/pd128/lib.so $S; done
  for t in old new; do B causal $t --library exp/$t/causal/lib.so --causal $S; done
done
G="--shapes=4096x4096x4096,8192x8192x8192,4096x4096x1024,8192x8192x1024,2048x8192x2048,4096x14336x4096"
for round in 1 2; do
  for t in old new; do echo "== gemm $t $round"; timeout 120 ./tile-gemm-bench --library=exp/$t/gemm/libgemm.so --dtype=bf16 $G --runs=3 2>&1 | grep "^| [0-9]"; done
done
for t in old new; do B d64 $t --library exp/$t/d64/lib.so --head-dim 64 $S; done
for t in old new; do B pd64 $t --library exp/$t/pd64/lib.so --head-dim 64 $S; done
for t in old new; do B causal64 $t --library exp/$t/causal64/lib.so --causal --head-dim 64 $S; done
for t in old new; do B pcausal $t --library exp/$t/pcausal/lib.so --causal $S; done
for t in old new; do B bf16 $t --library exp/$t/bf16/lib.so --dtype bf16 $S; done
for t in old new; do B d256 $t --library exp/$t/d256/lib.so --head-dim 256 --shapes=4:16:4096,1:32:16384; done
GQ="--function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384"
for t in old new; do B gqa $t --library exp/$t/gqa/lib.so $GQ; B pgqa $t --library exp/$t/pgqa/lib.so $GQ; done
echo "== done"
