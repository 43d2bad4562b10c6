#!/usr/bin/env bash
# Sliced reductions with their loop over the parts software-pipelined
# (3 stages, sk/*s) against the sliced, unpipelined ones of run 85
# (aot/bf16: 4 parts, sk/p8: 8 parts): correctness, sanitizers, ncu, speed.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
G="timeout 150 python3 gemm-torch.py"
echo "== torch checks, same bits"
$G --library sk/d4s/libgemm.so --kind gemm --function gemm --dtype bf16 --check 5120x5120x5120,2100x2000x3000,4095x4097x3001,1x8192x4096,8192x16x4096,64x64x65536,512x512x16384,1000x1000x1000,3x5x7 --offsets 0,1,8 --same-bits 2>&1 | tail -1
$G --library sk/alls/libgemm.so --kind gemm --function gemm --dtype bf16 --check 2100x2000x1000,2100x2000x300,2100x2000x64,4095x4097x1023 --offsets 0,1,8 --same-bits 2>&1 | tail -1
$G --library sk/f32s/libgemm.so --kind gemm --function gemm_f32 --dtype bf16 --out-dtype f32 --check 5120x5120x5120,2100x2000x1000,64x64x65536 --offsets 0,1 --same-bits 2>&1 | tail -1
$G --library sk/biass/libgemm.so --kind bias_relu --function gemm_bias_relu --dtype bf16 --check 5120x5120x5120,2100x2000x1000,64x64x65536 --offsets 0,1 --same-bits 2>&1 | tail -1
$G --library sk/bmms/libgemm.so --kind bmm_nt --function bmm_nt --dtype bf16 --check 3x1000x1000x512,17x256x512x300,9x1024x1024x1024 --offsets 0,1 --same-bits 2>&1 | tail -1
for kind in tensor rowwise; do
  timeout 150 python3 fp8-torch.py --library sk/fp8s/libfp8_gemm.so --kind $kind --check 2100x2000x1000,4095x4097x1023,8192x16x4096,129x65x300 --offsets 0,16,1 2>&1 | tail -1
done
timeout 150 python3 sparse-torch.py --library sk/sparses/libgemm_sparse.so --out f16 --check 2100x2000x1000,4095x4097x1023,64x64x8192 --offsets 0,1,8 2>&1 | tail -1
echo "== CPU fp64 reference, offsets 1 and 8"
for off in 1 8; do
  timeout 150 ./tile-gemm-bench --library=sk/alls/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x1000,2100x2000x300,4095x4097x1023,64x64x8192 --offset=$off | tail -1
done
echo "== sanitizers"
for tool in memcheck racecheck synccheck; do
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --library=sk/alls/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x300,64x64x8192 2>&1 | tail -2
done
echo "== ncu 5120^3"
for lib in sk/d4s sk/p8s sk/p16s; do
  echo "-- $lib"
  timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --no-cublas --no-cpu-ref --shapes=5120x5120x5120 --runs=1 --iters=1 --warmup=1 2>&1 | grep -E "^  [a-z_]+kernel|duration" | head -4
done
echo "-- split-K 512x512x16384, 64x64x65536: sk/d4s"
timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum ./tile-gemm-bench --library=sk/d4s/libgemm.so --dtype=bf16 --no-cublas --no-cpu-ref --shapes=512x512x16384,64x64x65536 --runs=1 --iters=1 --warmup=1 2>&1 | grep -E "^  [a-z_]+kernel|duration" | head -12
for rep in 1 2; do
  echo "== bench tail shapes ($rep)"
  for lib in aot/bf16 sk/d4s sk/p8 sk/p8s sk/p16s; do
    echo "-- $lib"
    timeout 60 ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --shapes=5120x5120x5120,5120x5120x2560,5120x5120x10240,2100x2000x3000 --runs=5 | grep -E "^\| [0-9]"
  done
  echo "== split-K shapes ($rep)"
  for lib in aot/bf16 sk/d4s; do
    echo "-- $lib"
    $G --library $lib/libgemm.so --kind gemm --function gemm --dtype bf16 --bench 64x64x65536,256x256x65536,512x512x16384,1024x1024x8192 --runs 5 2>&1 | grep -E "^\||geomean|rror"
  done
done
