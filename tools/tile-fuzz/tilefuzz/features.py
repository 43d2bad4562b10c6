"""Mutations aimed at the kernel-level features of issues 24 to 26.

Same contract as the mutators of `mutate.py` (`f(rng, text, ctx) -> str |
None`, all randomness from `rng`); they know the syntax of:

* targets: `#tile.target<"chip"[, "features"]>` on a `tile.kernel` or the
  module (chips of both vendors, odd ones, features strings);
* pipes: `!tile.pipe<N>` slot counts (up to 2^63 - 1) and the hand-off ops
  `tile.pipe.produce_acquire/produce_commit/consume_wait/consume_release`
  (dropped, duplicated, reordered, renamed, their sequence operand changed),
  `tile.pipe.base/advance`, and `in_flight(k)`;
* kernel attributes `tile.pingpong`, `tile.warp_specialize`,
  `tile.blocks_per_sm`, `tile.launch_group`, `tile.persistent`, and
  `tile.exact_stages` on loops;
* tensor copies: `tile.copy async tma` (added, removed, moved out of their
  hand-off) and `tile.tma_store = N` on a copy;
* vendor ops: an `nvvm.` or `rocdl.` op inserted into a kernel body.

Several of them add a feature to an input that lacks it (a target, a kernel
attribute, a tensor store, a vendor op), so they reach every corpus input
with a kernel, not only the tests written for the feature.
"""

import re

CHIPS = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "gfx90a", "gfx942"]
ODD_CHIPS = ["sm_70", "sm_100a", "sm_120", "gfx1100", "gfx908", "garbage", "",
             "sm_", "gfx", "sm_90a,sm_80"]
TARGET_FEATURES = ["+ptx80", "+ptx70", "+ptx85", "+ptx99", "-ptx80", "garbage",
                   "", "+ptx80,+ptx70"]
PIPE_SLOTS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 65, 128, 255, 256,
              1024, 4096, 65536, 2**20, 2**22, 2**31 - 1, 2**31, 2**32,
              2**61, 2**63 - 1, -1]
IN_FLIGHT = [0, 1, 2, 3, 4, 7, 8, 63, 64, 65, 1024, 2**31, 2**63 - 1, -1]
HANDOFF_OPS = ["produce_acquire", "produce_commit", "consume_wait",
               "consume_release"]
BOOL_VALUES = ["true", "false", "1 : i64", "0 : i64", "\"x\"", "unit", "2 : i32"]
INT_VALUES = ["0 : i64", "1 : i64", "2 : i64", "3 : i64", "4 : i64",
              "8 : i64", "16 : i64", "132 : i64", "1024 : i64", "65536 : i64",
              "2147483648 : i64", "9223372036854775807 : i64", "-1 : i64",
              "-9223372036854775808 : i64", "2 : i32", "true", "\"x\"",
              "unit", "1.5 : f32"]
KERNEL_FLAGS = {
    "tile.pingpong": BOOL_VALUES,
    "tile.warp_specialize": BOOL_VALUES,
    "tile.blocks_per_sm": INT_VALUES,
    "tile.launch_group": INT_VALUES,
    "tile.persistent": INT_VALUES,
    "tile.exact_stages": ["unit"],
}
TMA_STORE_VALUES = ["0 : i64", "1 : i64", "2 : i64", "0", "1", "2", "3 : i64",
                    "4 : i64", "-1 : i64", "2147483648 : i64",
                    "9223372036854775807 : i64", "true", "\"x\"", "unit",
                    "2 : i8"]
# One line each; %fzv is renamed per insertion. Syntax as in the tests.
VENDOR_OPS = [
    "%fzv = nvvm.read.ptx.sreg.tid.x : i32",
    "%fzv = nvvm.read.ptx.sreg.ntid.x : i32",
    "%fzv = nvvm.read.ptx.sreg.ctaid.x : i32",
    "%fzv = nvvm.read.ptx.sreg.laneid : i32",
    "nvvm.barrier0",
    "nvvm.cp.async.commit.group",
    "nvvm.cp.async.wait.group 0",
    "nvvm.wgmma.fence.aligned",
    "nvvm.wgmma.commit.group.sync.aligned",
    "nvvm.wgmma.wait.group.sync.aligned 0",
    "nvvm.setmaxregister increase 232",
    "nvvm.setmaxregister decrease 40",
    "nvvm.fence.mbarrier.init",
    "nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, "
    "space = #nvvm.shared_space<cta>}",
    "%fzv = rocdl.workitem.id.x : i32",
    "%fzv = rocdl.workitem.id.y : i32",
    "%fzv = rocdl.workgroup.id.x : i32",
    "rocdl.s.barrier",
    "rocdl.sched.barrier 0",
    "rocdl.s.waitcnt 0",
]

KERNEL_HEAD_RE = re.compile(
    r"tile\.kernel @[\w.\"]+ blocks\([^)]*\)\s+in \[[^\]]*\](?:\s+threads\(\d+\))?"
    r"(?P<attrs>\s+attributes \{(?P<dict>[^{}]*)\})?(?=\s*\{)")
TARGET_RE = re.compile(r"#tile\.target<\"(?P<chip>[^\"]*)\"(?:,\s*\"(?P<feat>[^\"]*)\")?>")
TARGET_ATTR_RE = re.compile(r",?\s*tile\.target = #tile\.target<[^>]*>")
MODULE_RE = re.compile(r"^module(?P<attrs> attributes \{(?P<dict>[^{}]*)\})?(?= \{)", re.M)
PIPE_TYPE_RE = re.compile(r"!tile\.pipe<(-?\d+)>|(?<=tile\.pipe\.create : )<(-?\d+)>")
HANDOFF_LINE_RE = re.compile(r"^\s*tile\.pipe\.(?P<op>produce_acquire|produce_commit|"
                             r"consume_wait|consume_release|advance|base)\b", re.M)
SEQ_RE = re.compile(r"(tile\.pipe\.(?:produce_acquire|produce_commit|consume_wait|"
                    r"consume_release) %[\w.$-]+\[)(%[\w.$-]+)(\])")
IN_FLIGHT_RE = re.compile(r"in_flight\((-?\d+)\)")
TMA_COPY_RE = re.compile(r"^\s*tile\.copy async (?:in_bounds )?tma .*$", re.M)


def _choice_match(rng, regex, text):
    matches = list(regex.finditer(text))
    return rng.choice(matches) if matches else None


def _splice(text, start, end, new):
    return text[:start] + new + text[end:]


def _region_end(text, open_pos):
    depth = 0
    for i in range(open_pos, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _fresh_name(rng, text):
    while True:
        name = "%%fz%d" % rng.randrange(10**6)
        if name not in text:
            return name


def _set_dict_attr(text, m, name, value, group="attrs", dgroup="dict",
                   head_end=None):
    """Sets `name = value` (or the unit `name` for value "unit") in the
    attribute dictionary of match m (a kernel head or a module), adding the
    dictionary where there is none."""
    entry = name if value == "unit" else "%s = %s" % (name, value)
    if m.group(group):
        d = m.group(dgroup)
        items = [x for x in re.split(r",\s*(?![^<>\[\]\"]*[>\]\"])", d) if x.strip()]
        items = [x for x in items if x.strip().split(" ")[0] != name]
        items.append(entry)
        return _splice(text, m.start(dgroup), m.end(dgroup), ", ".join(items))
    end = m.end() if head_end is None else head_end
    return _splice(text, end, end, " attributes {%s}" % entry)


def _drop_dict_attr(text, m, name):
    d = m.group("dict")
    items = [x for x in re.split(r",\s*(?![^<>\[\]\"]*[>\]\"])", d) if x.strip()]
    keep = [x for x in items if x.strip().split(" ")[0] != name]
    if len(keep) == len(items):
        return None
    if not keep:
        return _splice(text, m.start("attrs"), m.end("attrs"), "")
    return _splice(text, m.start("dict"), m.end("dict"), ", ".join(keep))


def _chip(rng):
    return rng.choice(CHIPS) if rng.random() < 0.85 else rng.choice(ODD_CHIPS)


def _target(rng):
    chip = _chip(rng)
    if rng.random() < 0.25:
        return '#tile.target<"%s", "%s">' % (chip, rng.choice(TARGET_FEATURES))
    return '#tile.target<"%s">' % chip


# --- targets ----------------------------------------------------------------

def mut_target(rng, text, ctx):
    """A kernel's or the module's #tile.target: another chip (often of the
    other vendor), another features string, added where there is none, or
    removed."""
    r = rng.random()
    m = _choice_match(rng, TARGET_RE, text)
    if m and r < 0.4:
        chip = m.group("chip")
        if rng.random() < 0.6 and chip:
            # Swap the vendor, or the chip within it.
            pool = [c for c in CHIPS if c[:2] != chip[:2]] if rng.random() < 0.6 else \
                [c for c in CHIPS if c[:2] == chip[:2] and c != chip]
            new = rng.choice(pool or CHIPS)
        else:
            new = _chip(rng)
        return _splice(text, m.start("chip"), m.end("chip"), new)
    if m and r < 0.5:
        if m.group("feat") is not None:
            if rng.random() < 0.5:
                return _splice(text, m.end("chip") + 1, m.end() - 1, "")
            return _splice(text, m.start("feat"), m.end("feat"), rng.choice(TARGET_FEATURES))
        return _splice(text, m.end("chip") + 1, m.end("chip") + 1,
                       ', "%s"' % rng.choice(TARGET_FEATURES))
    if r < 0.6:
        a = _choice_match(rng, TARGET_ATTR_RE, text)
        if a:
            out = _splice(text, a.start(), a.end(), "")
            # Leave no empty dictionary behind.
            return re.sub(r" attributes \{\s*\}", "", out)
    if r < 0.85:
        k = _choice_match(rng, KERNEL_HEAD_RE, text)
        if k:
            return _set_dict_attr(text, k, "tile.target", _target(rng))
    mm = MODULE_RE.search(text)
    if mm:
        return _set_dict_attr(text, mm, "tile.target", _target(rng))
    # No module op: wrap everything after the type aliases in one.
    lines = text.split("\n")
    last_alias = max([i for i, ln in enumerate(lines)
                      if re.match(r"^[!#][\w.$-]+\s*=", ln)] + [-1])
    body = "\n".join(lines[last_alias + 1:]).strip("\n")
    if not body.strip():
        return None
    head = "\n".join(lines[:last_alias + 1])
    return ((head + "\n" if head else "") + "module attributes {tile.target = %s} {\n%s\n}\n"
            % (_target(rng), body))


# --- kernel attributes --------------------------------------------------------

def mut_kernel_flags(rng, text, ctx):
    """tile.pingpong, tile.warp_specialize, tile.blocks_per_sm,
    tile.launch_group, tile.persistent (on a kernel), tile.exact_stages (on
    a loop with a tile.num_stages, or misplaced on a kernel): changed,
    removed or added, with valid and invalid values."""
    name = rng.choice(sorted(KERNEL_FLAGS))
    value = rng.choice(KERNEL_FLAGS[name])
    if name == "tile.exact_stages" and rng.random() < 0.8:
        m = _choice_match(rng, re.compile(r"\} \{([^{}\n]*tile\.num_stages[^{}\n]*)\}"), text)
        if not m:
            return None
        items = [x.strip() for x in m.group(1).split(",")]
        if "tile.exact_stages" in items:
            items.remove("tile.exact_stages")
        else:
            items.insert(rng.randrange(len(items) + 1), "tile.exact_stages")
        return _splice(text, m.start(1), m.end(1), ", ".join(items))
    existing = [m for m in KERNEL_HEAD_RE.finditer(text)
                if m.group("dict") and name in m.group("dict")]
    if existing and rng.random() < 0.3:
        out = _drop_dict_attr(text, rng.choice(existing), name)
        if out is not None:
            return out
    pool = existing if existing and rng.random() < 0.7 else list(KERNEL_HEAD_RE.finditer(text))
    if not pool:
        return None
    return _set_dict_attr(text, rng.choice(pool), name, value)


# --- pipes, hand-offs, in_flight ---------------------------------------------

def mut_pipe_slots(rng, text, ctx):
    """The slot count N of !tile.pipe<N>: changed everywhere (types stay
    consistent between the pipe and its ops) or at one place only."""
    m = _choice_match(rng, PIPE_TYPE_RE, text)
    if not m:
        return None
    g = 1 if m.group(1) is not None else 2
    old = int(m.group(g))
    new = rng.choice(PIPE_SLOTS + [old + 1, old - 1, old * 2])
    if new == old:
        return None
    if rng.random() < 0.8:
        out = re.sub(r"!tile\.pipe<%d>" % old, "!tile.pipe<%d>" % new, text)
        return re.sub(r"(tile\.pipe\.create : )<%d>" % old, r"\g<1><%d>" % new, out)
    return _splice(text, m.start(g), m.end(g), str(new))


def mut_handoffs(rng, text, ctx):
    """The hand-off ops of a pipe: drop, duplicate, swap or move one (among
    the pipe op lines), rename one into another hand-off op, or change its
    sequence operand to another SSA value."""
    lines = text.split("\n")
    idx = [i for i, ln in enumerate(lines) if HANDOFF_LINE_RE.match(ln)]
    if not idx:
        return None
    op = rng.randrange(7)
    i = rng.choice(idx)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(rng.choice(idx + [i]), lines[i])
    elif op == 2 and len(idx) >= 2:
        j = rng.choice([k for k in idx if k != i])
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        line = lines.pop(i)
        lines.insert(rng.randrange(min(idx), max(idx) + 1), line)
    elif op == 4:
        m = re.search(r"tile\.pipe\.(produce_acquire|produce_commit|consume_wait|"
                      r"consume_release)", lines[i])
        if not m:
            return None
        new = rng.choice([o for o in HANDOFF_OPS if o != m.group(1)])
        ln = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
        if new == "consume_wait" and "in_flight" not in ln and rng.random() < 0.7:
            ln = re.sub(r"\](\s*:)", r"] in_flight(%d)\1" % rng.choice([0, 1, 2]), ln, 1)
        elif new != "consume_wait" and rng.random() < 0.8:
            ln = re.sub(r"\s*in_flight\(-?\d+\)", "", ln)
        lines[i] = ln
    else:
        return _mut_sequence(rng, text)
    return "\n".join(lines)


def _mut_sequence(rng, text):
    m = _choice_match(rng, SEQ_RE, text)
    if not m:
        return None
    # Prefer index values: pipe sequence operands, loop variables, constants.
    names = set(x.group(2) for x in SEQ_RE.finditer(text))
    names |= set(re.findall(r"scf\.for (%[\w.$-]+)", text))
    names |= set(re.findall(r"(%[\w.$-]+) = arith\.constant -?\d+ : index", text))
    names |= set(re.findall(r"(%[\w.$-]+) = arith\.\w+ [^\n]*: index$", text, re.M))
    names.discard(m.group(2))
    if not names:
        return None
    if rng.random() < 0.15:
        # A value defined in the text that is not an index (a verifier case).
        others = set(re.findall(r"(%[\w.$-]+) = ", text)) - names - {m.group(2)}
        if others:
            names = others
    return _splice(text, m.start(2), m.end(2), rng.choice(sorted(names)))


def mut_in_flight(rng, text, ctx):
    """in_flight(k) of a consume_wait: another k (around the pipe's slot
    count, or huge or negative), removed, or added where absent."""
    m = _choice_match(rng, IN_FLIGHT_RE, text)
    r = rng.random()
    if m and r < 0.75:
        slots = [int(x) for x in re.findall(r"!tile\.pipe<(\d+)>", text)] or [2]
        n = rng.choice(slots)
        new = rng.choice(IN_FLIGHT + [n - 1, n, n + 1])
        return _splice(text, m.start(1), m.end(1), str(new))
    if m and r < 0.85:
        return _splice(text, m.start(), m.end() + (text[m.end():m.end() + 1] == " "), "")
    w = _choice_match(rng, re.compile(r"(tile\.pipe\.consume_wait %[\w.$-]+\[[^\]]*\])(\s*:)"),
                      text)
    if not w:
        return None
    return _splice(text, w.end(1), w.end(1), " in_flight(%d)" % rng.choice(IN_FLIGHT))


# --- tensor copies and tensor stores -----------------------------------------

def mut_tma_copy(rng, text, ctx):
    """`tile.copy async tma`: add `tma` to an async copy (or to a plain one),
    drop it, or move a tensor copy out of its hand-off (before the acquire,
    after the commit, or out of the kernel's loop)."""
    r = rng.random()
    if r < 0.35:
        m = _choice_match(rng, re.compile(r"tile\.copy (async (?:in_bounds )?)?(?!tma)(?=%)"), text)
        if not m:
            return None
        return _splice(text, m.start(), m.end(),
                       rng.choice(["tile.copy async tma ", "tile.copy async tma ",
                                   "tile.copy tma ", "tile.copy async in_bounds tma "]))
    if r < 0.55:
        m = _choice_match(rng, re.compile(r"tile\.copy (async )?(in_bounds )?tma "), text)
        if not m:
            return None
        return _splice(text, m.start(), m.end(),
                       rng.choice(["tile.copy async ", "tile.copy ", "tile.copy async tma tma "]))
    lines = text.split("\n")
    copies = [i for i, ln in enumerate(lines) if TMA_COPY_RE.match(ln)]
    if not copies:
        return None
    i = rng.choice(copies)
    line = lines.pop(i)
    acq = [k for k in range(len(lines)) if "tile.pipe.produce_acquire" in lines[k] and k < i]
    com = [k for k in range(len(lines)) if "tile.pipe.produce_commit" in lines[k] and k >= i]
    fors = [k for k in range(len(lines)) if "scf.for" in lines[k] and k < i]
    choices = []
    if acq:
        choices.append(acq[-1])
    if com:
        choices.append(com[0] + 1)
    if fors:
        choices.append(fors[-1])
    if not choices:
        choices = [rng.randrange(len(lines) + 1)]
    lines.insert(rng.choice(choices), line)
    return "\n".join(lines)


def mut_tma_store(rng, text, ctx):
    """`tile.tma_store = N` on a tile.copy: 0, 1, 2 (staging buffers) or a
    bad value or type; changed, removed, added to a copy without one, or
    misplaced on another op."""
    m = _choice_match(rng, re.compile(r"tile\.tma_store = ([^,}]*)"), text)
    r = rng.random()
    if m and r < 0.4:
        return _splice(text, m.start(1), m.end(1), rng.choice(TMA_STORE_VALUES).replace("unit", "1"))
    if m and r < 0.5:
        out = re.sub(r"\s*\{tile\.tma_store = [^,}]*\}", "", text[m.start() - 1:], 1)
        if out != text[m.start() - 1:]:
            return text[:m.start() - 1] + out
    v = rng.choice(TMA_STORE_VALUES)
    entry = "tile.tma_store" if v == "unit" else "tile.tma_store = %s" % v
    if r < 0.95:
        # A copy to global memory (the epilogue store) mostly; any copy else.
        c = _choice_match(rng, re.compile(r"tile\.copy (?:async )?(?:in_bounds )?"
                                          r"%[\w.$-]+, %[\w.$-]+\[[^\]]*\]( \{[^{}]*\})?(?= :)"),
                          text)
        if not c:
            c = _choice_match(rng, re.compile(r"tile\.copy [^\n{]*?( \{[^{}]*\})?(?= :)"), text)
        if not c:
            return None
        if c.group(1):
            inner = c.group(1)[2:-1]
            return _splice(text, c.start(1), c.end(1), " {%s, %s}" % (inner, entry))
        return _splice(text, c.end(), c.end(), " {%s}" % entry)
    k = _choice_match(rng, KERNEL_HEAD_RE, text)
    if not k:
        return None
    return _set_dict_attr(text, k, "tile.tma_store", v)


# --- vendor ops ------------------------------------------------------------------

def mut_vendor_op(rng, text, ctx):
    """Inserts an nvvm or rocdl op at a random line of a tile.kernel body
    (the pipelines must report ops of the other vendor, and accept or
    reject their own ones with a location)."""
    heads = list(KERNEL_HEAD_RE.finditer(text))
    if not heads:
        return None
    h = rng.choice(heads)
    open_pos = text.find("{", h.end())
    end = _region_end(text, open_pos)
    if end is None:
        return None
    starts = [i + 1 for i in range(open_pos, end) if text[i] == "\n"]
    if not starts:
        return None
    pos = rng.choice(starts)
    op = rng.choice(VENDOR_OPS)
    if "%fzv" in op:
        op = op.replace("%fzv", _fresh_name(rng, text))
    indent = re.match(r"[ \t]*", text[pos:]).group()
    return _splice(text, pos, pos, indent + op + "\n")


MUTATORS = [
    # (name, weight, function); the pipe mutators apply to few inputs (those
    # with a pipe), hence their larger weights.
    ("target", 4, mut_target),
    ("kernel_flags", 4, mut_kernel_flags),
    ("pipe_slots", 5, mut_pipe_slots),
    ("handoffs", 10, mut_handoffs),
    ("in_flight", 6, mut_in_flight),
    ("tma_copy", 5, mut_tma_copy),
    ("tma_store", 3, mut_tma_store),
    ("vendor_op", 3, mut_vendor_op),
]
