"""MLIR-aware mutations of tile IR text.

Every mutator is `f(rng, text, ctx) -> str | None` (None: not applicable to
this text). They work on text but know the syntax: integer and float
literals, shaped types (`memref<...>`, `tensor<...>`, `vector<...>`) and
their dimensions, element types and memory spaces, the tile attributes and
op flags, SSA uses and lines and regions. Type mutators change one type
string everywhere it occurs, so that the IR often still verifies and the
mutation reaches the passes instead of the parser.

All randomness comes from the `random.Random` passed in: the same generator
state gives the same mutation.
"""

import re

from . import features

INT_SPECIAL = [0, 1, -1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65,
               127, 128, 129, 255, 256, 512, 1000, 1023, 1024, 1025, 4096,
               65535, 65536, 2**31 - 1, 2**31, -2**31, 2**32, 2**32 + 1,
               2**62, 2**63 - 1, -2**63, 2**63, 2**64, 10**20]
DIM_SPECIAL = [0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 24, 31, 33, 48, 63, 65, 96,
               127, 129, 192, 255, 257, 512, 1024, 4096, 65536, 2**31,
               2**32, 2**40, 2**62, "?"]
FLOAT_SPECIAL = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "65504.0", "65536.0",
                 "3.4028235e+38", "1.0e+39", "1.0e+308", "1.0e-45",
                 "0x7FC00000", "0x7F800000", "0xFF800000", "0x7C00",
                 "0x7FF0000000000000", "0x0"]
ELEM_TYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
              "index", "f8E4M3FN", "f8E5M2", "tf32", "complex<f32>",
              "vector<4xf16>"]
MEM_SPACES = ["#gpu.address_space<workgroup>", "#gpu.address_space<global>",
              "#gpu.address_space<private>", "#tile.mem<fragment>",
              "#tile.mem<local>", "3", "5", None]
NUM_STAGES = [0, 1, 2, 3, 4, 5, 7, 8, 16, 64, 1000, 2**20, 2**31, 2**63 - 1,
              -1]
THREADS = [0, 1, 31, 32, 33, 64, 96, 128, 160, 256, 384, 512, 1024, 1025,
           2048, 2**31]
POLICIES = ["square", "full_row", "full_col", "bogus"]
REDUCE_KINDS = ["max", "min", "sum", "abs_sum", "abs_max", "prod"]
GEMM_FLAGS = ["transpose_a", "transpose_b", "clear_accum"]
COPY_FLAGS = ["", "async ", "in_bounds ", "async in_bounds "]
ALLOC_ATTRS = [
    "{layout = #tile.shared<swizzle = %d>}", "{layout = #tile.shared<pad = %d>}",
    "{alignment = %d : i64}",
    "{layout = #tile.shared<swizzle = %d>, alignment = 1024 : i64}",
    "{layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = "
    "[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>}",
    "{layout = #tile.linear<[%d], register = [], lane = [], warp = []>}",
]
ATTR_VALUES = [0, 1, 3, 16, 32, 64, 128, 256, 1024, 2**31, 2**63 - 1]
KERNEL_ATTRS = ["tile.shared_memory_bytes = %d : i64",
                "tile.fragment_registers = %d : i64", "foo"]

INT_RE = re.compile(r"(?<![\w%#@.\-^!$\"])-?\d+(?![\w.])")
FLOAT_RE = re.compile(r"(?<![\w.])-?\d+\.\d*(?:[eE][+-]?\d+)?(?![\w])|"
                      r"(?<![\w])0x[0-9A-Fa-f]+(?![\w])")
SHAPED_START_RE = re.compile(r"\b(?:memref|tensor|vector)<")
DIMS_RE = re.compile(r"^(memref|tensor|vector)<((?:(?:\d+|\?)x)*)")
ELEM_AFTER_DIMS_RE = re.compile(r"complex<\w+>|vector<[^<>]*>|[\w.]+")
MEMSPACE_RE = re.compile(r",\s*(#gpu\.address_space<\w+>|#tile\.mem<\w+>|\d+)"
                         r"(?=>$)")
SCALAR_TYPE_RE = re.compile(
    r"(?<![\w!#%@])(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)(?![\w<])")
SSA_USE_RE = re.compile(r"%[A-Za-z_$.\d-][\w$.-]*(?![\w$.-])(?!\s*=[^=])")
SSA_NAME_RE = re.compile(r"%[A-Za-z_$.\d-][\w$.-]*")


def _choice_match(rng, regex, text):
    matches = list(regex.finditer(text))
    return rng.choice(matches) if matches else None


def _splice(text, start, end, new):
    return text[:start] + new + text[end:]


def _int_value(rng, old=None):
    r = rng.random()
    if old is not None and r < 0.3:
        return rng.choice([old + 1, old - 1, old * 2, old // 2, -old,
                           old * 1000, old * 7 + 1])
    return rng.choice(INT_SPECIAL)


def shaped_types(text):
    """(start, end) of every balanced memref/tensor/vector type in text."""
    out = []
    for m in SHAPED_START_RE.finditer(text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            c = text[i]
            if c == "<":
                depth += 1
            elif c == ">" and text[i - 1] != "-":
                depth -= 1
                if depth == 0:
                    out.append((m.start(), i + 1))
                    break
            elif c == "\n" or (c == ";"):
                break
            i += 1
    return out


# --- literals -------------------------------------------------------------

def mut_int_literal(rng, text, ctx):
    m = _choice_match(rng, INT_RE, text)
    if not m:
        return None
    return _splice(text, m.start(), m.end(), str(_int_value(rng, int(m.group()))))


def mut_float_literal(rng, text, ctx):
    m = _choice_match(rng, FLOAT_RE, text)
    if not m:
        return None
    return _splice(text, m.start(), m.end(), rng.choice(FLOAT_SPECIAL))


# --- shaped types (changed everywhere the same type string occurs) ---------

def _mutate_type_everywhere(rng, text, sub):
    spans = shaped_types(text)
    if not spans:
        return None
    start, end = rng.choice(spans)
    old = text[start:end]
    new = sub(rng, old)
    if new is None or new == old:
        return None
    if rng.random() < 0.8:
        return text.replace(old, new)
    return _splice(text, start, end, new)


def _sub_shape(rng, ty):
    m = DIMS_RE.match(ty)
    if not m:
        return None
    dims = [d for d in m.group(2).split("x") if d]
    op = rng.randrange(6)
    if op <= 1 or not dims:
        if not dims:
            dims = [str(rng.choice(DIM_SPECIAL))]
        else:
            i = rng.randrange(len(dims))
            dims[i] = str(rng.choice(DIM_SPECIAL))
    elif op == 2:
        del dims[rng.randrange(len(dims))]
    elif op == 3:
        i = rng.randrange(len(dims))
        dims.insert(i, dims[i])
    elif op == 4:
        dims.insert(rng.randrange(len(dims) + 1), str(rng.choice([1, 2, 4])))
    else:
        i, j = rng.randrange(len(dims)), rng.randrange(len(dims))
        dims[i], dims[j] = dims[j], dims[i]
    body = "".join(d + "x" for d in dims)
    return m.group(1) + "<" + body + ty[m.end():]


def mut_shape(rng, text, ctx):
    if rng.random() < 0.5:
        return _mut_dim_value(rng, text)
    return _mutate_type_everywhere(rng, text, _sub_shape)


def _mut_dim_value(rng, text):
    """Changes one dimension size V to W in every shaped type (and, half of
    the time, `arith.constant V : index` too): tile sizes stay consistent
    between the operands of a gemm or a copy."""
    spans = shaped_types(text)
    values = sorted({d for a, b in spans
                     for d in (DIMS_RE.match(text[a:b]) or [None, None, ""])[2].split("x")
                     if d.isdigit()})
    if not values:
        return None
    old = rng.choice(values)
    new = str(rng.choice([v for v in DIM_SPECIAL if str(v) != old]))
    out, last = [], 0
    for a, b in spans:
        ty = text[a:b]
        m = DIMS_RE.match(ty)
        if not m:
            continue
        dims = ["?" if d == "?" else (new if d == old else d)
                for d in m.group(2).split("x") if d]
        out.append(text[last:a] + m.group(1) + "<" + "".join(d + "x" for d in dims)
                   + ty[m.end():])
        last = b
    out.append(text[last:])
    res = "".join(out)
    if new != "?" and rng.random() < 0.5:
        res = re.sub(r"(arith\.constant )%s( : index)" % old, r"\g<1>%s\2" % new, res)
    if new != "?" and rng.random() < 0.5:
        # The extents of tile.parallel spaces and static grids follow.
        res = re.sub(r" in \[([^\]]*)\]", lambda m: " in [%s]" % ", ".join(
            new if v.strip() == old else v.strip() for v in m.group(1).split(",")), res)
    return res


def _sub_elem(rng, ty):
    m = DIMS_RE.match(ty)
    if not m:
        return None
    e = ELEM_AFTER_DIMS_RE.match(ty, m.end())
    if not e:
        return None
    return ty[:e.start()] + rng.choice(ELEM_TYPES) + ty[e.end():]


def mut_elem_type(rng, text, ctx):
    return _mutate_type_everywhere(rng, text, _sub_elem)


def _sub_memspace(rng, ty):
    if not ty.startswith("memref<"):
        return None
    new = rng.choice(MEM_SPACES)
    m = MEMSPACE_RE.search(ty)
    if m:
        repl = "" if new is None else ", " + new
        return ty[:m.start()] + repl + ty[m.end():]
    if new is None:
        return None
    return ty[:-1] + ", " + new + ">"


def mut_memspace(rng, text, ctx):
    return _mutate_type_everywhere(rng, text, _sub_memspace)


def _sub_layout(rng, ty):
    if not ty.startswith("memref<"):
        return None
    if "strided<" in ty or "affine_map" in ty:
        return re.sub(r",\s*(strided<[^>]*>|affine_map<[^>]*>)", "", ty, 1)
    m = DIMS_RE.match(ty)
    e = ELEM_AFTER_DIMS_RE.match(ty, m.end()) if m else None
    if not e:
        return None
    rank = len([d for d in m.group(2).split("x") if d])
    strides = ", ".join(rng.choice(["1", "?", "2", "64"]) for _ in range(rank))
    layout = ", strided<[%s], offset: %s>" % (strides, rng.choice(["0", "?"]))
    return ty[:e.end()] + layout + ty[e.end():]


def mut_layout(rng, text, ctx):
    return _mutate_type_everywhere(rng, text, _sub_layout)


def mut_scalar_type(rng, text, ctx):
    """Replaces one standalone scalar type, or every use of one element type
    (standalone and inside shaped types) by another."""
    if rng.random() < 0.5:
        m = _choice_match(rng, SCALAR_TYPE_RE, text)
        if not m:
            return None
        return _splice(text, m.start(), m.end(), rng.choice(ELEM_TYPES[:10]))
    old = rng.choice(["f16", "bf16", "f32", "i32", "f64", "index"])
    new = rng.choice(ELEM_TYPES)
    pat = re.compile(r"(?<![\w!#%@])" + old + r"(?![\w<])|(?<=[\d?]x)" + old +
                     r"(?![\w<])")
    out = pat.sub(new, text)
    return out if out != text else None


# --- tile attributes and op flags ------------------------------------------

def mut_num_stages(rng, text, ctx):
    m = _choice_match(rng, re.compile(r"tile\.num_stages = (-?\d+) : (i\d+)"), text)
    r = rng.random()
    if m and r < 0.7:
        return _splice(text, m.start(1), m.end(1), str(rng.choice(NUM_STAGES)))
    if m and r < 0.8:
        return _splice(text, m.start(2), m.end(2), rng.choice(["i32", "i1", "index"]))
    if m and r < 0.9:
        return _splice(text, m.start(), m.end(), "tile.foo = 1 : i64")
    # Mark an scf.for that has none.
    fors = [x for x in re.finditer(r"scf\.for [^\n]*\{\s*\n", text)]
    if not fors:
        return None
    f = rng.choice(fors)
    end = region_end(text, text.rfind("{", f.start(), f.end()))
    if end is None or text[end + 1:end + 3] == " {":
        return None
    attr = " {tile.num_stages = %d : i64}" % rng.choice(NUM_STAGES)
    return text[:end + 1] + attr + text[end + 1:]


def mut_threads(rng, text, ctx):
    pat = rng.choice([r"threads\((\d+)\)", r"registers\((\d+)\)",
                      r"tile\.ws \[([\d, ]*)\]"])
    m = _choice_match(rng, re.compile(pat), text)
    if not m:
        return None
    if pat.startswith("tile"):
        new = ", ".join(str(rng.choice([0, 1, 2, 3, 7, 2**31]))
                        for _ in range(rng.randrange(4)))
    else:
        new = str(rng.choice(THREADS))
    return _splice(text, m.start(1), m.end(1), new)


def mut_gemm(rng, text, ctx):
    m = _choice_match(rng, re.compile(
        r"tile\.gemm\s+%[\w.]+,\s*%[\w.]+,\s*%[\w.]+((?:\s+(?:transpose_a|"
        r"transpose_b|clear_accum|policy\s*<\w+>))*)"), text)
    if not m:
        return None
    flags = m.group(1).split()
    flags = [f for f in " ".join(flags).replace("policy <", "policy<").split()]
    r = rng.random()
    if r < 0.4:
        f = rng.choice(GEMM_FLAGS)
        flags = [x for x in flags if x != f] if f in flags else flags + [f]
    elif r < 0.8:
        flags = [x for x in flags if not x.startswith("policy")]
        flags.append("policy<%s>" % rng.choice(POLICIES))
    else:
        rng.shuffle(flags)
    new = "".join(" " + f.replace("policy<", "policy <") for f in flags)
    return _splice(text, m.start(1), m.end(1), new)


def mut_reduce(rng, text, ctx):
    r = rng.random()
    if r < 0.4:
        m = _choice_match(rng, re.compile(r"tile\.reduce <(\w+)>"), text)
        if m:
            return _splice(text, m.start(1), m.end(1), rng.choice(REDUCE_KINDS))
        return None
    m = _choice_match(rng, re.compile(r"(tile\.reduce [^\n]*? dim )(\d+)( clear)?"), text)
    if not m:
        return None
    if r < 0.7:
        return _splice(text, m.start(2), m.end(2), str(rng.choice([0, 1, 2, 3, -1, 2**31])))
    if m.group(3):
        return _splice(text, m.start(3), m.end(3), "")
    return _splice(text, m.end(2), m.end(2), " clear")


def mut_copy_flags(rng, text, ctx):
    m = _choice_match(rng, re.compile(r"tile\.copy ((?:(?:async|in_bounds) )*)"), text)
    if not m:
        return None
    return _splice(text, m.start(1), m.end(1), rng.choice(COPY_FLAGS))


SHARED_ATTRS = ["{layout = #tile.shared<swizzle = %d>}" % v for v in (0, 32, 64, 128)] + \
    ["{layout = #tile.shared<pad = %d>}" % v for v in (0, 8, 16, 32)] + \
    ["{layout = #tile.shared<swizzle = 128>, alignment = 1024 : i64}",
     "{alignment = 128 : i64}"]


def mut_alloc_attrs(rng, text, ctx):
    m = _choice_match(rng, re.compile(r"tile\.alloc(\s*\{[^{}]*\})?(?=\s*:\s*(\S+))"), text)
    if not m:
        return None
    if m.group(1) and rng.random() < 0.4:
        return _splice(text, m.start(1), m.end(1), "")
    # The type (or its alias) says where the tile lives: pick a fitting
    # layout most of the time.
    ty = m.group(2)
    if ty.startswith("!"):
        d = re.search(re.escape(ty) + r"\s*=\s*(.*)", text)
        ty = d.group(1) if d else ty
    r = rng.random()
    if "workgroup" in ty and r < 0.7:
        attr = rng.choice(SHARED_ATTRS)
    elif "fragment" in ty and r < 0.5:
        attr = ALLOC_ATTRS[4]
    else:
        attr = rng.choice(ALLOC_ATTRS)
        if "%d" in attr:
            attr = attr % rng.choice(ATTR_VALUES)
    return _splice(text, m.start(), m.end(), "tile.alloc " + attr)


def mut_kernel_attrs(rng, text, ctx):
    m = _choice_match(rng, re.compile(
        r"(tile\.kernel @[\w.\"]+ blocks\([^)]*\)\s+in \[[^\]]*\](?: threads\(\d+\))?)"
        r"( attributes \{[^{}]*\})?(?= \{)"), text)
    if not m:
        return None
    if m.group(2) and rng.random() < 0.3:
        return _splice(text, m.start(2), m.end(2), "")
    attr = rng.choice(KERNEL_ATTRS)
    if "%d" in attr:
        attr = attr % rng.choice(ATTR_VALUES + [100000, 232448])
    return _splice(text, m.end(1), m.end(), " attributes {%s}" % attr)


def mut_array_attr(rng, text, ctx):
    m = _choice_match(rng, re.compile(r"array<i64:([^>]*)>"), text)
    if not m:
        return None
    vals = [v.strip() for v in m.group(1).split(",") if v.strip()]
    r = rng.random()
    if len(vals) >= 2 and r < 0.5:
        i, j = rng.sample(range(len(vals)), 2)
        vals[i], vals[j] = vals[j], vals[i]
    elif vals and r < 0.8:
        vals[rng.randrange(len(vals))] = str(rng.choice([0, 1, 2, 3]))
    elif vals and r < 0.9:
        del vals[rng.randrange(len(vals))]
    elif vals:
        vals.insert(rng.randrange(len(vals) + 1), rng.choice(vals + ["-1", str(2**31)]))
    else:
        vals = ["0"]
    return _splice(text, m.start(1), m.end(1), " " + ", ".join(vals))


def mut_bounds(rng, text, ctx):
    """Grids and iteration spaces: `in [..]` of tile.kernel/tile.parallel."""
    m = _choice_match(rng, re.compile(r" in \[([^\]]*)\]"), text)
    if not m:
        return None
    vals = [v.strip() for v in m.group(1).split(",")]
    i = rng.randrange(len(vals))
    vals[i] = str(rng.choice([0, 1, 3, 33, 1024, 65535, 65536, 2**31 - 1,
                              2**31, 2**32, 2**63 - 1]))
    return _splice(text, m.start(1), m.end(1), ", ".join(vals))


# --- SSA values, lines and regions ------------------------------------------

def mut_ssa_use(rng, text, ctx):
    names = sorted(set(SSA_NAME_RE.findall(text)))
    m = _choice_match(rng, SSA_USE_RE, text)
    if not m or len(names) < 2:
        return None
    return _splice(text, m.start(), m.end(), rng.choice(names))


def region_end(text, open_pos):
    """Index of the `}` closing the `{` at open_pos, or None."""
    depth = 0
    for i in range(open_pos, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def mut_lines(rng, text, ctx):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    op = rng.randrange(6)
    i = rng.randrange(len(lines))
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        line = lines.pop(i)
        lines.insert(rng.randrange(len(lines) + 1), line)
    elif op == 4:
        donors = ctx.get("donor_lines") or []
        if not donors:
            return None
        lines.insert(i, rng.choice(donors))
    else:
        # Delete an op with a region, or only its body.
        opens = [k for k, ln in enumerate(lines) if ln.rstrip().endswith("{")]
        if not opens:
            return None
        k = rng.choice(opens)
        start = sum(len(ln) + 1 for ln in lines[:k]) + len(lines[k].rstrip()) - 1
        end = region_end(text, start)
        if end is None:
            return None
        if rng.random() < 0.5:
            line_start = start - len(lines[k].rstrip()) + 1
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            return text[:line_start] + text[line_end + 1:]
        return text[:start + 1] + "\n" + text[end:]
    return "\n".join(lines)


MUTATORS = [
    # (name, weight, function)
    ("int", 14, mut_int_literal),
    ("float", 3, mut_float_literal),
    ("shape", 12, mut_shape),
    ("elemtype", 10, mut_elem_type),
    ("scalartype", 3, mut_scalar_type),
    ("memspace", 8, mut_memspace),
    ("layout", 2, mut_layout),
    ("num_stages", 5, mut_num_stages),
    ("threads", 4, mut_threads),
    ("gemm", 4, mut_gemm),
    ("reduce", 3, mut_reduce),
    ("copy", 4, mut_copy_flags),
    ("alloc", 4, mut_alloc_attrs),
    ("kernel_attrs", 2, mut_kernel_attrs),
    ("array", 1, mut_array_attr),
    ("bounds", 4, mut_bounds),
    ("ssa", 2, mut_ssa_use),
    ("lines", 6, mut_lines),
] + features.MUTATORS
_NAMES = [m[0] for m in MUTATORS]
_WEIGHTS = [m[1] for m in MUTATORS]
_FUNCS = {m[0]: m[2] for m in MUTATORS}
MUTATION_COUNTS = [1, 1, 1, 1, 2, 2, 2, 3, 4, 6]


def mutate(rng, text, ctx, count=None):
    """Applies `count` (default: 1 to 6, random) mutations in sequence.
    Returns (new text, [names of the mutations applied])."""
    if count is None:
        count = rng.choice(MUTATION_COUNTS)
    applied = []
    for _ in range(count):
        for _attempt in range(8):
            name = rng.choices(_NAMES, _WEIGHTS)[0]
            out = _FUNCS[name](rng, text, ctx)
            if out is not None and out != text:
                text = out
                applied.append(name)
                break
    return text, applied
