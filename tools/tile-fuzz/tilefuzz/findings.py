"""Findings on disk: `OUT/<kind>-<hash>.mlir` files with a header that says
how to reproduce them, re-running saved findings (`--regression`), and
turning findings that no longer reproduce into lit tests (`--emit-lit`).

Header of a finding file (comment lines, ignored by tile-opt):

  // tile-fuzz finding: crash
  // signature: crash: LLVM ERROR: ... @ frame
  // message: LLVM ERROR: ...
  // command: tile-opt %s ... -o /dev/null
  // found: seed 1, input 42 (examples/gemm.mlir; mutations int, shape), ...
  // tile-fuzz-json: {"kind": ..., "signature": ..., "pipeline": {...}}
"""

import hashlib
import json
import os
import re

from . import runner as runner_mod
from .pipelines import Pipeline

JSON_PREFIX = "// tile-fuzz-json: "


def finding_name(kind, signature):
    return "%s-%s" % (kind, hashlib.sha1(signature.encode()).hexdigest()[:10])


def display_command(pipeline, flags, file_token="%s", work_token="%t"):
    """The tile-opt command line of a pipeline, for headers and RUN lines."""
    args = [a.replace("@WORK@", work_token) for a in pipeline.args]
    parts = ["tile-opt", file_token] + list(flags) + args + ["-o", "/dev/null"]
    return " ".join(p if re.fullmatch(r"[\w%@+=:,./-]+", p) else '"%s"' % p
                    for p in parts)


def _oneline(s, limit=300):
    s = " ".join(s.split())
    return s if len(s) <= limit else s[:limit] + "..."


def write_finding(out_dir, rec, text, flags, minimized, tests):
    """rec: dict with kind, signature, message, pipeline (Pipeline), seed,
    index, source, mutations, count, ptxas_detail."""
    rec = dict(rec, message=re.sub(r"\S*/(input\.mlir)", r"\1", rec["message"] or ""))
    name = finding_name(rec["kind"], rec["signature"])
    path = os.path.join(out_dir, name + ".mlir")
    meta = {"kind": rec["kind"], "signature": rec["signature"],
            "message": rec["message"], "pipeline": rec["pipeline"].to_json(),
            "flags": list(flags), "seed": rec["seed"], "index": rec["index"],
            "source": rec["source"], "mutations": rec["mutations"],
            "count": rec["count"], "minimized": minimized}
    header = [
        "// tile-fuzz finding: " + rec["kind"],
        "// signature: " + _oneline(rec["signature"]),
        "// message: " + _oneline(rec["message"]),
        "// command: " + display_command(rec["pipeline"], flags),
    ]
    if rec["kind"] == "ptxas-reject" or (rec["kind"] == "hang" and "ptxas" in rec["signature"]):
        header.append("// then: ptxas -arch=%s %%t/<kernel>_module.ptx -o /dev/null"
                      % (rec["pipeline"].chip or "sm_90a"))
    header.append("// found: seed %s, input %s (%s; mutations %s), %d occurrence%s; "
                  "minimized: %s (%d tests)" % (
                      rec["seed"], rec["index"], rec["source"],
                      ", ".join(rec["mutations"]) or "none", rec["count"],
                      "" if rec["count"] == 1 else "s",
                      "yes" if minimized else "no", tests))
    header.append(JSON_PREFIX + json.dumps(meta, sort_keys=True))
    with open(path, "w") as f:
        f.write("\n".join(header) + "\n\n" + text.rstrip("\n") + "\n")
    return path


def read_finding(path):
    """(meta dict, input text without the header) or (None, None)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    meta, body = None, []
    for i, line in enumerate(lines):
        if line.startswith(JSON_PREFIX):
            meta = json.loads(line[len(JSON_PREFIX):])
        elif not line.startswith("// ") or meta is not None:
            body = lines[i:]
            break
    if meta is None:
        return None, None
    return meta, "\n".join(body).strip("\n") + "\n"


def rerun(run, meta, text, workdir):
    """Re-runs a saved finding: the Outcome it gives now."""
    p = Pipeline.from_json(meta["pipeline"])
    inp = os.path.join(workdir, "input.mlir")
    with open(inp, "w") as f:
        f.write(text)
    return run.run(inp, p, workdir)


def _filecheck_escape(s):
    s = s.replace("{{", "{ {").replace("[[", "[ [")
    return s


def lit_test(meta, text, outcome, ptx_files, flags):
    """A lit regression test for a finding that tile-opt now handles."""
    p = Pipeline.from_json(meta["pipeline"])
    cmd = display_command(p, flags)
    lines = ["// Regression test from tile-fuzz (seed %s, input %s): was %s" % (
        meta.get("seed"), meta.get("index"), meta["kind"]),
        "//   " + _oneline(meta["signature"], 200)]
    checks_ptxas = meta["kind"] == "ptxas-reject" and outcome.kind == "ok" and ptx_files
    if checks_ptxas:
        lines.append("// REQUIRES: ptxas")
    if p.emits_binary:
        lines.append("// RUN: rm -rf %t && mkdir -p %t")
    if outcome.kind == "ok":
        lines.append("// RUN: " + cmd)
        if checks_ptxas:
            for f in ptx_files:
                lines.append("// RUN: %%ptxas -arch=%s %%t/%s -o /dev/null" % (p.chip, f))
    else:
        m = runner_mod.LOCATED_RE.match(outcome.message or "")
        msg = m.group("msg") if m else (outcome.message or "").split("error:", 1)[-1].strip()
        lines.append("// RUN: not " + cmd + " 2>&1 | FileCheck %s")
        lines.append("// CHECK: {{.*}}:{{[1-9][0-9]*}}:{{[0-9]+}}: error: " +
                     _filecheck_escape(msg))
        lines.append("// CHECK-NOT: LLVM ERROR")
    return "\n".join(lines) + "\n\n" + text


def regression(run, paths, workdir, emit_lit=None, flags=(), reminimize=None):
    """Re-runs saved findings; returns (still reproducing, fixed) lists.
    reminimize(rec) -> (text, minimized?, tests, pipeline), when given, is
    applied to each finding that still gives its signature, and the file is
    rewritten with the smaller reproducer."""
    still, fixed = [], []
    for path in paths:
        meta, text = read_finding(path)
        if meta is None:
            continue
        for f in os.listdir(workdir):
            os.unlink(os.path.join(workdir, f))
        out = rerun(run, meta, text, workdir)
        name = os.path.basename(path)
        if out.is_bug:
            same = out.signature == meta["signature"]
            still.append(name)
            print("STILL %s: %s%s" % (name, out.kind,
                                      "" if same else " (now: %s)" % _oneline(out.signature, 150)),
                  flush=True)
            if reminimize and (same or out.kind == meta["kind"] == "hang"):
                rec = dict(meta, pipeline=Pipeline.from_json(meta["pipeline"]), text=text)
                new, ok, tests, pipe = reminimize(rec)
                if ok and (len(new) < len(text) or pipe.args != rec["pipeline"].args):
                    write_finding(os.path.dirname(path), dict(rec, pipeline=pipe), new,
                                  meta.get("flags", flags), True, tests)
                    print("  minimized: %d -> %d lines (%d tests)" % (
                        len(text.strip().splitlines()), len(new.strip().splitlines()), tests),
                        flush=True)
            continue
        fixed.append(name)
        print("FIXED %s: was %s, now %s%s" % (name, meta["kind"], out.kind,
                                              ": " + _oneline(out.message, 150)
                                              if out.message else ""), flush=True)
        if emit_lit:
            os.makedirs(emit_lit, exist_ok=True)
            ptx = sorted(f for f in os.listdir(workdir) if f.endswith(".ptx"))
            with open(os.path.join(emit_lit, name), "w") as f:
                f.write(lit_test(meta, text, out, ptx, meta.get("flags", flags)))
    return still, fixed
