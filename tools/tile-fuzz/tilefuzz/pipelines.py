"""The tile-opt pipelines that every mutated input is run through.

The tile passes and their options are read from `tile-opt --help` (every
pass or pass pipeline whose name contains `tile`), so that a new pass is
fuzzed without changing the fuzzer. A plan for one input is a list of
Pipeline specs: always plain parse/verify first, then (when that passed)
the full `tile-to-nvvm` pipeline with fuzzed option values and a few other
pipelines picked at random.
"""

import re
import subprocess

PASS_RE = re.compile(r"^      --([a-z][\w-]*)\s+-\s")
OPT_RE = re.compile(r"^        --([a-z][\w-]*)(?:=<(\w+)>)?\s+-\s")

# Chains of tile passes, in pipeline order; only passes tile-opt has are kept.
CHAINS = {
    "tile-chain": ["tile-pipeline-planning", "tile-inject-pipeline",
                   "tile-register-prefetch", "tile-layout-inference",
                   "tile-insert-barriers", "tile-plan-pipes", "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops"],
    "tile-chain-gpu": ["tile-pipeline-planning", "tile-inject-pipeline",
                       "tile-specialize-bounds", "tile-layout-inference",
                       "tile-insert-barriers", "tile-plan-pipes", "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops",
                       "convert-tile-to-gpu"],
    "lower-to-gpu": ["tile-layout-inference", "tile-insert-barriers", "tile-plan-pipes",
                     "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops", "convert-tile-to-gpu"],
    "check-plan-inject": ["tile-check-resources", "tile-pipeline-planning",
                          "tile-inject-pipeline", "tile-check-resources"],
    "bounds-lower": ["tile-specialize-bounds", "tile-layout-inference",
                     "tile-insert-barriers", "tile-plan-pipes", "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops", "canonicalize"],
    "target-chain": ["tile-attach-target=chip=sm_90a", "tile-pipeline-planning",
                     "tile-inject-pipeline", "tile-register-prefetch",
                     "tile-layout-inference", "tile-insert-barriers", "tile-plan-pipes",
                     "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops", "convert-tile-to-gpu"],
    "rotate-chain": ["tile-attach-target=chip=sm_90a", "tile-rotate-loops",
                     "tile-specialize-masks", "tile-pipeline-planning",
                     "tile-inject-pipeline", "tile-hand-off-copies",
                     "tile-layout-inference",
                     "tile-insert-barriers", "tile-plan-pipes",
                     "tile-allocate-scratch", "tile-allocate-shared",
                     "tile-lower-ops", "convert-tile-to-gpu"],
    "amd-chain": ["tile-attach-target=chip=gfx942", "tile-pipeline-planning",
                  "tile-inject-pipeline", "tile-register-prefetch",
                  "tile-layout-inference", "tile-insert-barriers", "tile-plan-pipes",
                  "tile-allocate-scratch", "tile-allocate-shared", "tile-lower-ops"],
}
FULL = "tile-to-nvvm"
# The AMD pipeline: picked like the other pipelines, with fuzzed chip and
# format as for tile-to-nvvm (its default format=bin needs a ROCm folder).
ROCDL = "tile-to-rocdl"
GOOD_AMD_CHIPS = ["gfx942", "gfx90a"]
GOOD_CHIPS = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
ODD_CHIPS = ["sm_60", "sm_70", "sm_75", "sm_100a", "sm_120", "gfx942",
             "garbage", "", "sm_", "sm_9999", "sm_90a,sm_80"]
GOOD_FORMATS = ["isa", "bin", "fatbin"]
ODD_FORMATS = ["foo", "llvm", "offload", ""]
ODD_FEATURES = ["+ptx70", "+ptx80", "+ptx99", "-ptx80", "garbage"]
INT_OPT_VALUES = [0, 1, -1, 2, 100, 255, 256, 1024, 49152, 232448, 2**31,
                  2**63 - 1, -2**63]
STR_OPT_VALUES = ["", "x", "sm_80", "+ptx80", "/nonexistent"]


class Pipeline:
    """One tile-opt invocation: `name` for statistics, `args` for the
    command line; `chip`/`format` for tile-to-nvvm runs (ptxas follows
    format=isa); `odd_options` when an option value is deliberately outside
    what the pass supports (a located or option error is then expected)."""

    def __init__(self, name, args, chip=None, fmt=None, odd_options=False,
                 emits_binary=False):
        self.name = name
        self.args = list(args)
        self.chip = chip
        self.format = fmt
        self.odd_options = odd_options
        self.emits_binary = emits_binary

    def to_json(self):
        return {"name": self.name, "args": self.args, "chip": self.chip,
                "format": self.format, "odd_options": self.odd_options,
                "emits_binary": self.emits_binary}

    @staticmethod
    def from_json(d):
        return Pipeline(d["name"], d["args"], d.get("chip"), d.get("format"),
                        d.get("odd_options", False), d.get("emits_binary", False))

    def key(self):
        return self.name + "\0" + "\0".join(self.args)


def read_passes(tile_opt, timeout=60):
    """{pass name: [(option, type or None), ...]} for the tile passes."""
    out = subprocess.run([tile_opt, "--help"], capture_output=True, text=True,
                         timeout=timeout).stdout
    passes, cur = {}, None
    for line in out.splitlines():
        m = PASS_RE.match(line)
        if m:
            name = m.group(1)
            cur = name if "tile" in name else None
            if cur:
                passes[cur] = []
            continue
        m = OPT_RE.match(line)
        if m and cur:
            passes[cur].append((m.group(1), m.group(2)))
        elif not line.startswith("        "):
            cur = None
    return dict(sorted(passes.items()))


class PipelineSet:
    def __init__(self, passes, ptxas=None):
        self.passes = passes
        self.ptxas = ptxas
        names = [p for p in passes
                 if p not in (FULL, ROCDL, "tile-emit-binary")]
        self.single = names
        self.chains = {k: v for k, v in CHAINS.items()
                       if all(p.split("=")[0] in passes or p == "canonicalize"
                              for p in v)}
        # Names of everything a plan can contain, for the statistics.
        self.all_names = (["parse", "roundtrip", "canonicalize"] + names +
                          sorted(self.chains) + ([FULL] if FULL in passes else []) +
                          ([ROCDL] if ROCDL in passes else []))

    def _fuzz_pass_option(self, rng, name):
        """Sometimes sets one option of `name` to a fuzzed value."""
        opts = self.passes.get(name, [])
        if not opts or rng.random() < 0.75:
            return "--" + name, False
        opt, ty = rng.choice(opts)
        if opt == "prefix":
            return "--" + name, False
        if opt == "chip":
            val = rng.choice(GOOD_CHIPS + ODD_CHIPS)
        elif opt == "features":
            val = rng.choice(ODD_FEATURES + [""])
        elif opt == "format":
            val = rng.choice(GOOD_FORMATS + ODD_FORMATS)
        elif ty is None:
            val = rng.choice(["true", "false", "1", "maybe"])
        elif ty in ("int", "long", "uint", "ulong", "number"):
            val = str(rng.choice(INT_OPT_VALUES))
        else:
            val = rng.choice(STR_OPT_VALUES)
        # Any fuzzed option value may be rejected, with an option error.
        odd = True
        return "--%s=%s=%s" % (name, opt, val), odd

    def full(self, rng, workdir_token="@WORK@"):
        """tile-to-nvvm with fuzzed options, then tile-emit-binary."""
        r = rng.random()
        chip = (rng.choice(["sm_90a", "sm_80"]) if r < 0.6 else
                rng.choice(GOOD_CHIPS) if r < 0.75 else rng.choice(ODD_CHIPS))
        r = rng.random()
        fmt = ("isa" if r < 0.8 else rng.choice(GOOD_FORMATS) if r < 0.92
               else rng.choice(ODD_FORMATS))
        opts = ["chip=" + chip, "format=" + fmt]
        odd = chip not in GOOD_CHIPS or fmt not in GOOD_FORMATS
        known = dict(self.passes.get(FULL, []))
        if "features" in known and rng.random() < 0.15:
            f = rng.choice(ODD_FEATURES)
            opts.append("features=" + f)
            odd = odd or f not in ("+ptx80",)
        if "opt-level" in known and rng.random() < 0.1:
            lvl = rng.choice([0, 1, 2, 3, 7, -1])
            opts.append("opt-level=%d" % lvl)
            odd = odd or lvl not in (0, 1, 2, 3)
        for flag in ("pipeline", "specialize-bounds"):
            if flag in known and rng.random() < 0.3:
                opts.append("%s=%s" % (flag, rng.choice(["true", "false"])))
        args = ["--%s=%s" % (FULL, " ".join(opts))]
        emits = "tile-emit-binary" in self.passes
        if emits:
            args.append("--tile-emit-binary=prefix=%s/" % workdir_token)
        return Pipeline(FULL, args, chip=chip, fmt=fmt, odd_options=odd,
                        emits_binary=emits)

    def rocdl(self, rng, workdir_token="@WORK@"):
        """tile-to-rocdl with fuzzed chip and format (isa mostly: bin needs
        a ROCm folder), then tile-emit-binary."""
        r = rng.random()
        chip = (rng.choice(GOOD_AMD_CHIPS) if r < 0.8 else
                rng.choice(GOOD_CHIPS + ODD_CHIPS))
        r = rng.random()
        fmt = "isa" if r < 0.9 else rng.choice(ODD_FORMATS)
        odd = chip not in GOOD_AMD_CHIPS or fmt != "isa"
        opts = ["chip=" + chip, "format=" + fmt]
        known = dict(self.passes.get(ROCDL, []))
        for flag in ("pipeline", "specialize-bounds"):
            if flag in known and rng.random() < 0.3:
                opts.append("%s=%s" % (flag, rng.choice(["true", "false"])))
        args = ["--%s=%s" % (ROCDL, " ".join(opts))]
        emits = "tile-emit-binary" in self.passes
        if emits:
            args.append("--tile-emit-binary=prefix=%s/" % workdir_token)
        return Pipeline(ROCDL, args, chip=chip, fmt=fmt, odd_options=odd,
                        emits_binary=emits)

    def others(self):
        return (["roundtrip", "canonicalize"] + self.single +
                sorted(self.chains) + ([ROCDL] if ROCDL in self.passes else []))

    def make(self, rng, name):
        if name == "parse":
            return Pipeline("parse", [])
        if name == "roundtrip":
            return Pipeline("roundtrip", ["--verify-roundtrip"])
        if name == "canonicalize":
            return Pipeline("canonicalize", ["--canonicalize"])
        if name == FULL:
            return self.full(rng)
        if name == ROCDL:
            return self.rocdl(rng)
        if name in self.chains:
            return Pipeline(name, ["--" + p for p in self.chains[name]])
        arg, odd = self._fuzz_pass_option(rng, name)
        return Pipeline(name, [arg], odd_options=odd)

    def plan(self, rng, per_input):
        """The pipelines run after `parse` succeeded: tile-to-nvvm (when
        present) and `per_input - 1` others; per_input 0 means all."""
        others = self.others()
        if per_input <= 0:
            picked = others
        else:
            k = max(0, min(len(others), per_input - (1 if FULL in self.passes else 0)))
            picked = sorted(rng.sample(others, k), key=others.index)
        plan = [self.make(rng, n) for n in picked]
        if FULL in self.passes:
            plan.append(self.full(rng))
        return plan
