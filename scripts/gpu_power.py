"""Sustained speed at the GPU's power limit (docs/perf.md, Method: Power).

Each kernel runs alone, back to back, for a phase of PHASE seconds, while
`nvidia-smi` samples the SM clock and the power every 100 ms. Per phase:
the calls per second, and the mean clock and power over the phase's last
half (the power reading averages over about a second), hence TFLOP/s and
TFLOP per joule. Short alternating runs (the benchmarks of fa-sdpa.py,
fp8-torch.py, sparse-torch.py) measure a kernel partly before the limiter
has brought the clock down to what its power allows; this measures after.

    with PowerLog("samples.csv") as log:
        for _ in range(2):
            log.phase("ours 8192^3", ours, 2.0 * M * N * K)
            log.phase("cuBLAS 8192^3", theirs, 2.0 * M * N * K)
    log.print_table()

Runs 132-136 and 144 in docs/perf/ use it.
"""
import csv
import subprocess
import time

import torch

QUERY = "timestamp,clocks.sm,power.draw,power.draw.instant,temperature.gpu"


def _number(text):
    text = text.strip()
    return float("nan") if text in ("[N/A]", "N/A") else float(text)


def _timestamp(text):
    whole, _, fraction = text.strip().partition(".")
    return time.mktime(time.strptime(whole, "%Y/%m/%d %H:%M:%S")) + \
        float("0." + (fraction or "0"))


class PowerLog:
    """Phases of back-to-back calls with nvidia-smi sampling beside them;
    the sampler is stopped however the `with` block ends."""

    def __init__(self, samples_csv, phase_s=5.0, rest_s=1.5):
        self.path, self.phase_s, self.rest_s = samples_csv, phase_s, rest_s
        self.phases = []
        self.smi = None

    def __enter__(self):
        self.smi = subprocess.Popen(
            ["nvidia-smi", f"--query-gpu={QUERY}",
             "--format=csv,noheader,nounits", "-lms", "100"],
            stdout=open(self.path, "w"), stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        return self

    def __exit__(self, *exc):
        time.sleep(0.5)
        self.smi.terminate()
        self.smi.wait()
        return False

    def phase(self, name, call, flop, warmup=5, batch=20):
        """Calls `call` back to back for the phase (after `warmup` calls,
        synchronizing every `batch` calls: fewer for long calls), then
        rests so that the next phase starts from a settled reading."""
        for _ in range(warmup):
            call()
        torch.cuda.synchronize()
        t0, n = time.time(), 0
        while time.time() - t0 < self.phase_s:
            for _ in range(batch):
                call()
            n += batch
            torch.cuda.synchronize()
        self.phases.append((name, t0, time.time(), n, flop))
        time.sleep(self.rest_s)

    def samples(self):
        rows = []
        for r in csv.reader(open(self.path)):
            try:
                rows.append((_timestamp(r[0]), _number(r[1]), _number(r[2]),
                             _number(r[3])))
            except (ValueError, IndexError):
                pass  # a partial last line, or a header
        return rows

    def print_table(self):
        rows = self.samples()
        print("| phase | TFLOP/s | SM MHz | W (avg) | W (instant) | TFLOP/J |")
        print("|---|---|---|---|---|---|")
        for name, t0, t1, n, flop in self.phases:
            last_half = [x for x in rows if t0 + (t1 - t0) / 2 <= x[0] <= t1]
            if not last_half:
                print(f"| {name} | no samples | | | | |")
                continue
            mean = [sum(x[i] for x in last_half) / len(last_half)
                    for i in (1, 2, 3)]
            tflops = n * flop / (t1 - t0) / 1e12
            print(f"| {name} | {tflops:.1f} | {mean[0]:.0f} | {mean[1]:.0f} "
                  f"| {mean[2]:.0f} | {tflops / mean[1]:.3f} |")
