#!/usr/bin/env python3
"""tile-fuzz: a mutation fuzzer for tile-opt. See docs/fuzzing.md.

  python3 tools/tile-fuzz/tile-fuzz.py --seed 1 --time-budget 600 --jobs 2 \
      --minimize --out fuzz-out

Mutates the examples and lit test inputs (MLIR-aware: literals, shapes,
element types, memory spaces, tile attributes, pipeline options, lines),
runs tile-opt on each through plain parsing and, when that succeeds, the
full tile-to-nvvm pipeline (then ptxas on its PTX) and a few other tile
passes and pass chains, under per-run time and memory limits; classifies
every run, deduplicates bugs by signature, minimizes them, and writes them
and a summary.json to --out. Deterministic: the same seed, corpus and
tile-opt pass list give the same inputs, whatever --jobs is.
"""

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ROOT = os.path.dirname(os.path.dirname(HERE))

from tilefuzz import corpus, findings, minimize, mutate, pipelines  # noqa: E402
from tilefuzz import runner as runner_mod  # noqa: E402

DEFAULT_PTXAS = "/usr/local/cuda/bin/ptxas"


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="tile-fuzz", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tile-opt", default=os.path.join(ROOT, "build", "bin", "tile-opt"))
    ap.add_argument("--seed", action="append", default=None,
                    help="seed (repeatable, or comma-separated); default 1")
    ap.add_argument("--iterations", type=int, default=None,
                    help="inputs per seed")
    ap.add_argument("--time-budget", type=float, default=None,
                    help="seconds of fuzzing in all, split between the seeds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    ap.add_argument("--memory-mb", type=int, default=4096,
                    help="address-space limit per run (RLIMIT_AS)")
    ap.add_argument("--no-memory-limit", action="store_true",
                    help="no RLIMIT_AS (needed for ASan builds; automatic when "
                         "tile-opt is one)")
    ap.add_argument("--corpus", nargs="+", default=None,
                    help="files, directories or globs (default: examples/*.mlir "
                         "and test/**/*.mlir)")
    ap.add_argument("--out", default="tile-fuzz-out", help="findings and summary.json")
    ap.add_argument("--ptxas", default=DEFAULT_PTXAS if os.path.exists(DEFAULT_PTXAS) else None,
                    help="ptxas for the PTX of tile-to-nvvm format=isa runs ('' = none)")
    ap.add_argument("--pipelines-per-input", type=int, default=3,
                    help="pipelines after parse: tile-to-nvvm + N-1 random others; 0 = all")
    ap.add_argument("--minimize", action="store_true",
                    help="minimize each distinct finding (with --regression: minimize "
                         "the saved findings that still reproduce further)")
    ap.add_argument("--minimize-tests", type=int, default=400,
                    help="most tile-opt runs spent minimizing one finding")
    ap.add_argument("--minimize-time", type=float, default=300,
                    help="most seconds spent minimizing one finding")
    ap.add_argument("--hang-timeout", type=float, default=5.0,
                    help="per-run timeout while minimizing a hang")
    ap.add_argument("--threading", action="store_true",
                    help="let MLIR use threads (default: --mlir-disable-threading)")
    ap.add_argument("--list-hashes", action="store_true",
                    help="print the hash of every generated input and plan, run nothing")
    ap.add_argument("--dump-inputs", metavar="DIR",
                    help="also write every generated input to DIR/<seed>-<index>.mlir")
    ap.add_argument("--regression", metavar="DIR",
                    help="re-run the findings saved in DIR; exit 1 if any still reproduces")
    ap.add_argument("--emit-lit", metavar="DIR",
                    help="with --regression: write a lit test for each fixed finding")
    ap.add_argument("--fail-on-bugs", action="store_true",
                    help="exit 1 when the run found a bug")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    seeds = []
    for s in a.seed or ["1"]:
        seeds += [int(x) for x in str(s).split(",") if x.strip()]
    a.seeds = seeds
    if a.ptxas == "":
        a.ptxas = None
    if a.iterations is None and a.time_budget is None and not a.regression:
        ap.error("give --iterations and/or --time-budget")
    return a


def is_asan(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
        return b"__asan_init" in data or b"AddressSanitizer" in data
    except OSError:
        return False


class Input:
    def __init__(self, seed, index, source, text, mutations, plan):
        self.seed = seed
        self.index = index
        self.source = source
        self.text = text
        self.mutations = mutations
        self.plan = plan
        h = hashlib.sha1(text.encode())
        for p in plan:
            h.update(b"\0" + p.key().encode())
        self.hash = h.hexdigest()[:16]


def generate(seed, index, seeds, groups, pset, per_input):
    """Input `index` of `seed`: depends only on (seed, index), the corpus and
    the pass list, never on what ran before or on the number of jobs."""
    rng = random.Random("tile-fuzz/%d/%d" % (seed, index))
    src = rng.choice(rng.choice(groups))
    donor = rng.choice(seeds).text.split("\n")
    text, muts = mutate.mutate(rng, src.text, {"donor_lines": donor})
    plan = pset.plan(random.Random("tile-fuzz/%d/%d/plan" % (seed, index)), per_input)
    return Input(seed, index, src.name, text, muts, plan)


def run_input(run, inp, base):
    """[(Pipeline, Outcome)] of one input: parse, then the plan if it parsed."""
    work = tempfile.mkdtemp(prefix="s%d-i%d-" % (inp.seed, inp.index), dir=base)
    try:
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as f:
            f.write(inp.text)
        parse = pipelines.Pipeline("parse", [])
        res = [(parse, run.run(path, parse, work))]
        if res[0][1].kind == "ok":
            for p in inp.plan:
                res.append((p, run.run(path, p, work)))
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Stats:
    def __init__(self, names):
        self.per_pipeline = {n: {} for n in names}
        self.per_outcome = {}
        self.per_seed = {}
        self.bugs = {}          # signature -> record of the first occurrence
        self.inputs = 0
        self.runs = 0
        self.hashes = {}
        self.errors = {}        # pipeline -> {error signature: count}

    def add(self, inp, results):
        self.inputs += 1
        seed = self.per_seed.setdefault(inp.seed, {"inputs": 0, "runs": 0, "bugs": 0})
        seed["inputs"] += 1
        self.hashes[(inp.seed, inp.index)] = inp.hash
        for p, out in results:
            self.runs += 1
            seed["runs"] += 1
            d = self.per_pipeline.setdefault(p.name, {})
            d[out.kind] = d.get(out.kind, 0) + 1
            self.per_outcome[out.kind] = self.per_outcome.get(out.kind, 0) + 1
            if out.kind == "error":
                e = self.errors.setdefault(p.name, {})
                e[out.signature] = e.get(out.signature, 0) + 1
            if not out.is_bug:
                continue
            seed["bugs"] += 1
            rec = self.bugs.get(out.signature)
            key = (inp.seed, inp.index)
            if rec is None or key < (rec["seed"], rec["index"]):
                count, seen = (rec["count"], rec["seeds"]) if rec else (0, set())
                rec = {"kind": out.kind, "signature": out.signature,
                       "message": out.message, "pipeline": p, "seed": inp.seed,
                       "index": inp.index, "source": inp.source,
                       "mutations": inp.mutations, "text": inp.text,
                       "count": count, "seeds": seen, "detail": out.detail[:8000]}
                self.bugs[out.signature] = rec
            rec["count"] += 1
            rec["seeds"].add(inp.seed)


def fuzz_seed(a, seed, budget, seeds, groups, pset, run, stats, base, log):
    start = time.monotonic()
    index = 0
    pending = set()
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        while True:
            while len(pending) < 2 * a.jobs:
                if a.iterations is not None and index >= a.iterations:
                    break
                if budget is not None and time.monotonic() - start >= budget:
                    break
                inp = generate(seed, index, seeds, groups, pset, a.pipelines_per_input)
                if a.dump_inputs:
                    with open(os.path.join(a.dump_inputs, "%d-%d.mlir" % (seed, index)), "w") as f:
                        f.write(inp.text)
                fut = ex.submit(run_input, run, inp, base)
                fut.inp = inp
                pending.add(fut)
                index += 1
            if not pending:
                break
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: f.inp.index):
                results = fut.result()
                new = []
                for _, o in results:
                    if o.is_bug and o.signature not in stats.bugs and o.signature not in new:
                        new.append(o.signature)
                stats.add(fut.inp, results)
                for sig in new:
                    log("seed %d input %d: new %s" % (seed, fut.inp.index, sig[:200]))
                done_here = stats.per_seed[seed]["inputs"]
                if done_here % 100 == 0:
                    log("seed %d: %d inputs, %d runs, %d distinct bugs so far, %.0fs" % (
                        seed, done_here, stats.per_seed[seed]["runs"], len(stats.bugs),
                        time.monotonic() - start))


def minimize_record(a, run, rec, base):
    """(text, minimized?, tests, pipeline) for one finding: the input, then
    the pipeline (passes of a chain, options of a pass) are made smaller."""
    p = rec["pipeline"]
    timeout = min(a.timeout, a.hang_timeout) if rec["kind"] == "hang" else a.timeout
    work = tempfile.mkdtemp(prefix="min-", dir=base)
    want = "hang:" + p.name if rec["kind"] == "hang" else rec["signature"]
    path = os.path.join(work, "input.mlir")

    def check(text, pipe, t=timeout):
        for f in os.listdir(work):
            os.unlink(os.path.join(work, f))
        with open(path, "w") as f:
            f.write(text)
        out = run.run(path, pipe, work, timeout=t, locate_hangs=False)
        # A hang is stopped at a random point: compare kind and pipeline only.
        return (out.kind + ":" + pipe.name if out.kind == "hang" else out.signature) == want
    try:
        m = minimize.Minimizer(lambda t: check(t, p), max_tests=a.minimize_tests,
                               time_limit=a.minimize_time)
        text, ok = m.run(rec["text"])
        if ok:
            p = minimize_pipeline(p, lambda q: check(text, q), m)
        if ok and timeout < a.timeout and not check(text, p, a.timeout):
            text, ok, p = rec["text"], False, rec["pipeline"]
        return text, ok, m.tests, p
    finally:
        shutil.rmtree(work, ignore_errors=True)


def minimize_pipeline(p, test, m):
    """Drops passes of a chain and `key=value` options of a pass while the
    finding stays (the pipeline keeps its name for the statistics)."""
    args = list(p.args)
    i = 0
    while i < len(args) and len(args) > 1 and not m.exhausted():
        if args[i].startswith("--tile-emit-binary"):
            i += 1
            continue
        cand = args[:i] + args[i + 1:]
        m.tests += 1
        if test(pipelines.Pipeline(p.name, cand, p.chip, p.format, p.odd_options,
                                   p.emits_binary)):
            args = cand
        else:
            i += 1
    for i, arg in enumerate(args):
        if "=" not in arg or arg.startswith("--tile-emit-binary"):
            continue
        flag, opts = arg.split("=", 1)
        items = opts.split(" ")
        j = 0
        while j < len(items) and not m.exhausted():
            if items[j].split("=")[0] in ("chip", "format"):
                j += 1
                continue
            rest = items[:j] + items[j + 1:]
            cand = args[:i] + ([flag + "=" + " ".join(rest)] if rest else [flag]) + args[i + 1:]
            m.tests += 1
            if test(pipelines.Pipeline(p.name, cand, p.chip, p.format, p.odd_options,
                                       p.emits_binary)):
                items, args = rest, cand
            else:
                j += 1
    return pipelines.Pipeline(p.name, args, p.chip, p.format, p.odd_options, p.emits_binary)


def summary_line(stats, seeds, elapsed):
    order = runner_mod.OUTCOMES
    counts = " ".join("%s=%d" % (k, stats.per_outcome.get(k, 0)) for k in order)
    return ("tile-fuzz: seeds=%s inputs=%d runs=%d bugs=%d distinct=%d time=%.0fs | %s"
            % (",".join(map(str, seeds)), stats.inputs, stats.runs,
               sum(stats.per_outcome.get(k, 0) for k in runner_mod.BUG_KINDS),
               len(stats.bugs), elapsed, counts))


def main(argv):
    a = parse_args(argv)
    log = (lambda s: None) if a.quiet else (lambda s: print("tile-fuzz: " + s, file=sys.stderr, flush=True))
    if os.sep not in a.tile_opt and shutil.which(a.tile_opt):
        a.tile_opt = shutil.which(a.tile_opt)
    # Runs happen in scratch directories: a relative path would not resolve.
    a.tile_opt = os.path.abspath(a.tile_opt)
    if not os.access(a.tile_opt, os.X_OK):
        print("tile-fuzz: error: no tile-opt at %s (--tile-opt)" % a.tile_opt, file=sys.stderr)
        return 2
    memory = None if a.no_memory_limit else a.memory_mb
    if memory and is_asan(a.tile_opt):
        log("tile-opt is an ASan build: no memory limit")
        memory = None
    run = runner_mod.Runner(a.tile_opt, a.ptxas, a.timeout, memory, a.threading)
    base = tempfile.mkdtemp(prefix="tile-fuzz-")
    try:
        if a.regression:
            paths = corpus.expand_paths([a.regression], ROOT)
            # DIR/open/ holds findings not fixed yet (run them with
            # --regression DIR/open); the others must not reproduce.
            if os.path.isdir(a.regression):
                paths = [p for p in paths if os.path.relpath(p, a.regression).split(
                    os.sep)[0] != "open"]
            work = os.path.join(base, "regression")
            os.makedirs(work)
            remin = (lambda rec: minimize_record(a, run, rec, base)) if a.minimize else None
            still, fixed = findings.regression(run, paths, work, a.emit_lit, run.flags, remin)
            print("tile-fuzz: regression: %d still reproduce, %d fixed" % (len(still), len(fixed)))
            return 1 if still else 0
        return fuzz(a, run, base, log)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def fuzz(a, run, base, log):
    paths = corpus.expand_paths(a.corpus, ROOT) if a.corpus else corpus.default_corpus_paths(ROOT)
    seeds = corpus.load_corpus(paths, ROOT)
    if not seeds:
        print("tile-fuzz: error: empty corpus", file=sys.stderr)
        return 2
    groups = corpus.group_by_file(seeds)
    n_files = len(groups)
    feature = corpus.feature_groups(seeds, n_files)
    groups += feature
    pset = pipelines.PipelineSet(pipelines.read_passes(a.tile_opt), a.ptxas)
    if a.list_hashes:
        n = a.iterations if a.iterations is not None else 100
        for seed in a.seeds:
            for i in range(n):
                inp = generate(seed, i, seeds, groups, pset, a.pipelines_per_input)
                print("%d %d %s %s" % (seed, i, inp.hash, inp.source))
                if a.dump_inputs:
                    os.makedirs(a.dump_inputs, exist_ok=True)
                    with open(os.path.join(a.dump_inputs,
                                           "%d-%d.mlir" % (seed, i)), "w") as f:
                        f.write(inp.text)
        return 0
    os.makedirs(a.out, exist_ok=True)
    if a.dump_inputs:
        os.makedirs(a.dump_inputs, exist_ok=True)
    log("corpus: %d inputs from %d files (%d with the newer features, picked "
        "for %d%% of the inputs); pipelines: %s; ptxas: %s" % (
            len(seeds), n_files, len(feature[0]) if feature else 0,
            round(100 * len(feature) / len(groups)), ", ".join(pset.all_names),
            a.ptxas or "none"))
    stats = Stats(["parse"] + pset.all_names)
    start = time.monotonic()
    for k, seed in enumerate(a.seeds):
        budget = None
        if a.time_budget is not None:
            left = a.time_budget - (time.monotonic() - start)
            budget = max(0.0, left / (len(a.seeds) - k))
        fuzz_seed(a, seed, budget, seeds, groups, pset, run, stats, base, log)
    fuzz_time = time.monotonic() - start

    written = []
    recs = sorted(stats.bugs.values(), key=lambda r: (r["kind"], r["signature"]))
    results = {}
    if a.minimize and recs:
        log("minimizing %d distinct findings" % len(recs))
        with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = {ex.submit(minimize_record, a, run, r, base): r["signature"] for r in recs}
            for f in cf.as_completed(futs):
                results[futs[f]] = f.result()
    for r in recs:
        text, ok, tests, pipe = results.get(r["signature"], (r["text"], False, 0, r["pipeline"]))
        r = dict(r, pipeline=pipe)
        path = findings.write_finding(a.out, r, text, run.flags, ok, tests)
        with open(path[:-len(".mlir")] + ".orig.txt", "w") as f:
            f.write(r["text"])
        with open(path[:-len(".mlir")] + ".stderr.txt", "w") as f:
            f.write(r["detail"])
        written.append({"kind": r["kind"], "signature": r["signature"],
                        "file": os.path.basename(path), "count": r["count"],
                        "seed": r["seed"], "index": r["index"],
                        "seeds": sorted(r["seeds"]), "source": r["source"],
                        "pipeline": r["pipeline"].name,
                        "command": findings.display_command(r["pipeline"], run.flags),
                        "minimized": ok, "minimize_tests": tests,
                        "lines": len(text.strip().splitlines())})
    summary = {
        "tool": "tile-fuzz", "tile_opt": a.tile_opt, "ptxas": a.ptxas,
        "seeds": a.seeds, "iterations": a.iterations, "time_budget": a.time_budget,
        "jobs": a.jobs, "timeout": a.timeout,
        "memory_mb": run.memory_mb, "pipelines_per_input": a.pipelines_per_input,
        "corpus": {"files": n_files, "inputs": len(seeds),
                   "digest": corpus.corpus_digest(seeds)},
        "inputs": stats.inputs, "runs": stats.runs, "fuzz_seconds": round(fuzz_time, 1),
        "per_outcome": {k: stats.per_outcome.get(k, 0) for k in runner_mod.OUTCOMES},
        "per_pipeline": {n: {k: v for k, v in sorted(d.items())}
                         for n, d in stats.per_pipeline.items()},
        "per_seed": {str(s): dict(d) for s, d in stats.per_seed.items()},
        "findings": written,
        "top_errors": {n: dict(sorted(e.items(), key=lambda kv: (-kv[1], kv[0]))[:8])
                       for n, e in sorted(stats.errors.items())},
    }
    # Per-seed digest of the input hashes in index order (determinism check).
    for s in stats.per_seed:
        h = hashlib.sha1()
        for (seed, i) in sorted(k for k in stats.hashes if k[0] == s):
            h.update(stats.hashes[(seed, i)].encode())
        summary["per_seed"][str(s)]["input_hashes"] = h.hexdigest()[:16]
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=False)
        f.write("\n")
    for w in written:
        log("%s: %s (%d x, %s)" % (w["file"], w["signature"][:160], w["count"], w["pipeline"]))
    print(summary_line(stats, a.seeds, fuzz_time))
    return 1 if (a.fail_on_bugs and stats.bugs) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
