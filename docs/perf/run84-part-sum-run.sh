#!/usr/bin/env bash
# Part sums loaded straight from the workspace (split-K and split-tail
# reductions): correctness, sanitizers, ncu and speed against the shared-tile
# reduction (sk/old*); cuBLAS's kernels per sweep shape.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
G="timeout 150 python3 gemm-torch.py"
echo "== torch checks, same bits"
$G --library aot/bf16/libgemm.so --kind gemm --function gemm --dtype bf16 --check 5120x5120x5120,2100x2000x3000,4095x4097x3001 --offsets 0,1,8 --same-bits 2>&1 | tail -2
$G --library sk/all/libgemm.so --kind gemm --function gemm --dtype bf16 --check 2100x2000x1000,2100x2000x300,2100x2000x64,4095x4097x1023 --offsets 0,1,8 --same-bits 2>&1 | tail -2
$G --library aot/bf16/libgemm.so --kind gemm --function gemm --dtype bf16 --check 1x8192x4096,8192x16x4096,64x64x65536,512x512x16384,1000x1000x1000,3x5x7 --offsets 0,1 --same-bits 2>&1 | tail -2
$G --library sk/f32/libgemm.so --kind gemm --function gemm_f32 --dtype bf16 --out-dtype f32 --check 5120x5120x5120,2100x2000x1000,64x64x65536 --offsets 0,1 --same-bits 2>&1 | tail -2
$G --library sk/bias/libgemm.so --kind bias_relu --function gemm_bias_relu --dtype bf16 --check 5120x5120x5120,2100x2000x1000,64x64x65536 --offsets 0,1 --same-bits 2>&1 | tail -2
$G --library sk/bmm/libgemm.so --kind bmm_nt --function bmm_nt --dtype bf16 --check 3x1000x1000x512,17x256x512x300,9x1024x1024x1024 --offsets 0,1 --same-bits 2>&1 | tail -2
echo "== CPU fp64 reference, offsets 1 and 8"
for off in 1 8; do
  timeout 150 ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x1000,2100x2000x300,4095x4097x1023,64x64x8192 --offset=$off | tail -1
done
echo "== sanitizers"
for tool in memcheck racecheck synccheck; do
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --no-cublas --shapes=2100x2000x300,64x64x8192 2>&1 | tail -2
done
echo "== ncu 5120^3"
for lib in aot/bf16 sk/old4 sk/p8 sk/old8 sk/p16 sk/old16; do
  echo "-- $lib"
  timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --no-cublas --no-cpu-ref --shapes=5120x5120x5120 --runs=1 --iters=1 --warmup=1 2>&1 | grep -E "^  [a-z_]+kernel|duration" | head -6
done
echo "== ncu split-K 512x512x16384, 64x64x65536"
for lib in aot/bf16 sk/old4; do
  echo "-- $lib"
  timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --no-cublas --no-cpu-ref --shapes=512x512x16384,64x64x65536 --runs=1 --iters=1 --warmup=1 2>&1 | grep -E "^  [a-z_]+kernel|duration" | head -12
done
for rep in 1 2; do
  echo "== bench tail shapes ($rep)"
  for lib in sk/off sk/old4 aot/bf16 sk/old8 sk/p8 sk/old16 sk/p16; do
    echo "-- $lib"
    timeout 60 ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --shapes=5120x5120x5120,5120x5120x2560,5120x5120x10240,2100x2000x3000 --runs=5 | grep -E "^\| [0-9]"
  done
  echo "== split-K shapes ($rep)"
  for lib in sk/old4 aot/bf16; do
    echo "-- $lib"
    $G --library $lib/libgemm.so --kind gemm --function gemm --dtype bf16 --bench 64x64x65536,256x256x65536,512x512x16384,1024x1024x8192 --runs 5 2>&1 | grep -E "^\||geomean|rror"
  done
done
echo "== cuBLAS kernels"
timeout 120 python3 cublas-kernels.py --shapes "$SWEEP" --dtype bf16
echo "== sweep aot/bf16"
timeout 100 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
