#!/usr/bin/env bash
# Session 26, run 54: epilogue staging addresses as base + immediate
# (TmaStore grouping) against HEAD (82af01e), same process.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
CHECK="1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,1x4096x4096,8192x16x4096,2047x1025x513"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
for n in new-ex; do
  echo "== check $n"
  timeout 120 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --shapes="$CHECK" | tail -3
  for off in 1 8; do
    timeout 60 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --no-cublas --offset=$off --shapes=129x65x33,1000x1000x1000,4095x4097x1023 | tail -1
  done
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --no-cpu-ref --shapes=129x65x33,300x520x200 | tail -2
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --no-cpu-ref --no-cublas --shapes=300x520x200 | tail -2
done
echo "== torch kernels (new)"
timeout 120 python3 gemm-torch.py --library=defaults/new-f32out/lib.so --kind=gemm --function=gemm_f32 --out-dtype=f32 --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 --bench=4096x4096x4096,8192x8192x8192
timeout 120 python3 gemm-torch.py --library=defaults/new-biasrelu/lib.so --kind=bias_relu --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 --bench=4096x4096x4096,8192x8192x8192
echo "== fp8 checks (new)"
timeout 150 python3 fp8-torch.py --library aot-fp8-new/libfp8_gemm.so --kind tensor --check 1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096 --offsets 0,16,1 | tail -4
timeout 150 python3 fp8-torch.py --library aot-fp8-new/libfp8_gemm.so --kind blockwise --check 1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128 --offsets 0,1 | tail -4
for round in 1 2; do
  for n in base-ex new-ex; do
    echo "== bench $n round $round"
    timeout 200 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=7
  done
done
for round in 1 2; do
  for n in base new; do
    echo "== fp8 tensor $n round $round"
    timeout 150 python3 fp8-torch.py --library aot-fp8-$n/libfp8_gemm.so --kind tensor --bench 4096x4096x4096,8192x8192x8192,8192x8192x4096 | tail -5
  done
done
