#!/usr/bin/env bash
# The last wave split along K (tile-split-tail): correctness, sanitizers, speed.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
for off in 0 1 8; do
  echo "== check aot/bf16 offset $off"
  timeout 120 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --check --shapes=5120x5120x5120,2100x2000x3000,4095x4097x3001,3x5x7,1000x1000x1000,1x8192x4096 --offset=$off | tail -1
  echo "== check sk/all offset $off"
  timeout 120 ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --shapes=2100x2000x1000,2100x2000x300,2100x2000x64,4095x4097x1023,5120x5120x5120,3x5x7 --offset=$off | tail -1
done
echo "== torch checks, same bits"
timeout 150 python3 gemm-torch.py --library aot/bf16/libgemm.so --kind gemm --function gemm --dtype bf16 --check 5120x5120x5120,2100x2000x3000,4095x4097x3001 --offsets 0,1,8 --same-bits 2>&1 | tail -4
timeout 150 python3 gemm-torch.py --library sk/all/libgemm.so --kind gemm --function gemm --dtype bf16 --check 2100x2000x1000,2100x2000x300,2100x2000x64,4095x4097x1023 --offsets 0,1,8 --same-bits 2>&1 | tail -4
timeout 100 python3 gemm-torch.py --library sk/f32/libgemm.so --kind gemm --function gemm_f32 --dtype bf16 --out-dtype f32 --check 5120x5120x5120,2100x2000x1000,4095x4097x1023 --offsets 0,1 --same-bits 2>&1 | tail -4
timeout 100 python3 gemm-torch.py --library sk/bias/libgemm.so --kind bias_relu --function gemm_bias_relu --dtype bf16 --check 5120x5120x5120,2100x2000x1000,4095x4097x1023 --offsets 0,1 --same-bits 2>&1 | tail -4
timeout 100 python3 gemm-torch.py --library sk/bmm/libgemm.so --kind bmm_nt --function bmm_nt --dtype bf16 --check 3x1000x1000x512,17x256x512x300,9x1024x1024x1024 --offsets 0,1 --same-bits 2>&1 | tail -4
echo "== ncu 5120^3: default, p8, p16"
for lib in aot/bf16 sk/p8 sk/p16; do
  timeout 60 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --no-cublas --shapes=5120x5120x5120 --runs=1 --iters=1 --warmup=1 2>&1 | grep -E "^  gemm_kernel|duration" | head -4
done
echo "== bench 5120^3 and neighbours: off default p8 p16"
for lib in sk/off aot/bf16 sk/p8 sk/p16; do
  echo "-- $lib"
  timeout 60 ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --shapes=5120x5120x5120,5120x5120x2560,5120x5120x10240,2100x2000x3000 --runs=5 | grep -E "^\| [0-9]"
done
for rep in 1 2; do
  for lib in sk/off aot/bf16; do
    echo "== sweep $lib ($rep)"
    timeout 100 ./tile-gemm-bench --library=$lib/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep -E "^\| [0-9]"
  done
done
echo "== sanitizers (sk/all, 2100x2000x300)"
for tool in memcheck racecheck synccheck; do
  timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool ./tile-gemm-bench --library=sk/all/libgemm.so --dtype=bf16 --check --no-cpu-ref --no-cublas --shapes=2100x2000x300 2>&1 | tail -2
done
