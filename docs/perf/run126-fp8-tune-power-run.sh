#!/usr/bin/env bash
# Run 126: the FP8 per-tensor tuner's space (BN, stages, launch groups,
# clusters) timed by tile-tune-time, the winners against torch._scaled_mm;
# SM clocks and power while the bf16 example and cuBLAS run.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,power.max_limit,clocks.max.sm,clocks.max.mem --format=csv
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
echo "== tune fp8"
timeout 200 ./tile-tune-time fp8tune --shapes "$FP8" --runs 7 --cache $OUT/fp8.cache --save-timings $OUT/fp8-timings.txt | grep -v "variants, best"
cat $OUT/fp8.cache
# The winners (and the example's configuration, v20) against torch.
wins=$(grep -o 'v[0-9]*\.so' $OUT/fp8.cache | sort -u)
for round in 1 2; do
for lib in fp8tune/v20.so $wins; do
  echo "== bench $lib round $round"
  timeout 100 python3 fp8-torch.py --library $lib --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking"
done
done
echo "== clocks and power, bf16 8192^3 (ours and cuBLAS alternating)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.sw_thermal_slowdown --format=csv -lms 100 > $OUT/smi.csv &
SMI=$!
sleep 1
timeout 100 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --shapes=8192x8192x8192,4096x4096x4096 --runs=10 | grep "^| [0-9]"
sleep 1
kill $SMI
python3 - $OUT/smi.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]; data = [r for r in rows[1:] if len(r) == len(hdr)]
print(hdr)
for r in data[::5]: print(",".join(x.strip() for x in r))
PY
