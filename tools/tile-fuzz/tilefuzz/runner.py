"""Running tile-opt (and ptxas) under limits, and classifying the outcome.

Outcome kinds:
  ok                exit 0, nothing on stderr that says error
  error             exit != 0 with located diagnostics (`file:L:C: error:`),
                    or a clean failure of a run whose options were fuzzed
                    to unsupported values (an option error may be reported
                    without a location or on the module, never <unknown>)
  crash             a signal, an abort, `LLVM ERROR`, an assertion, a stack
                    dump, a sanitizer report (`ERROR: AddressSanitizer`,
                    `runtime error:`)
  hang              the per-run timeout expired (tile-opt gets SIGQUIT first
                    so that LLVM prints where it was, then SIGKILL)
  oom               the per-run memory limit was hit
  unlocated-error   exit != 0 and an error without a source location
                    (`<unknown>:0:`, `file:0:0:`, `error:` at line start) or
                    no error message at all
  error-but-exit-0  exit 0 although stderr says `error:`
  ptxas-reject      ptxas failed on PTX that tile-opt produced
  roundtrip-error   --verify-roundtrip failed on IR that parsed and verified
The last seven are bugs.
"""

import os
import re
import resource
import signal
import subprocess
import time

BUG_KINDS = ["crash", "hang", "oom", "unlocated-error", "error-but-exit-0",
             "ptxas-reject", "roundtrip-error"]
OUTCOMES = ["ok", "error"] + BUG_KINDS
BASE_FLAGS = ["--mlir-print-op-on-diagnostic=false"]
NO_THREADS = ["--mlir-disable-threading"]

LOCATED_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
ERROR_LINE_RE = re.compile(r"error:", re.IGNORECASE)
FRAME_RE = re.compile(r"^\s*#\d+\s+0x[0-9a-fA-F]+\s+(?:in\s+)?(?P<sym>.*)$")
OOM_RE = re.compile(r"out of memory|Allocation failed|std::bad_alloc|"
                    r"Cannot allocate memory|allocator is out of memory|"
                    r"allocation-size-too-big|requested allocation size|"
                    r"rss-limit-exceeded|failed to allocate")
SANITIZER_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|"
                          r"MemorySanitizer|ThreadSanitizer|UndefinedBehaviorSanitizer)"
                          r"(?::\s*([\w-]+))?|^(.*?): runtime error: (.*)$", re.M)
CRASH_RE = re.compile(r"LLVM ERROR:|PLEASE submit a bug report|^Stack dump:|"
                      r"Assertion `.*' failed|UNREACHABLE executed|"
                      r"terminate called|Segmentation fault", re.M)
SKIP_FRAME_RE = re.compile(
    r"llvm::sys::|RunSignalHandlers|SignalHandler|__pthread_kill|^raise\b|"
    r"^abort\b|^gsignal|report_fatal_error|reportFatal|llvm_unreachable|__assert_fail|"
    r"std::terminate|__cxa_|__gnu_cxx|_Unwind|__sanitizer|__asan|__ubsan|"
    r"__interceptor|^operator new|^malloc|^calloc|^realloc|libc_start|^_start\b|"
    r"^main\b|^std::__|^__libc|^clone|^start_thread|llvm::Error|"
    r"llvm::report_bad_alloc|ErrorHandling")


class RunResult:
    def __init__(self, rc, stderr, timed_out, elapsed, stdout=""):
        self.rc = rc
        self.stderr = stderr
        self.stdout = stdout
        self.timed_out = timed_out
        self.elapsed = elapsed


class Outcome:
    def __init__(self, kind, signature, message="", detail="", elapsed=0.0,
                 rc=None, command=None):
        self.kind = kind
        self.signature = signature
        self.message = message
        self.detail = detail
        self.elapsed = elapsed
        self.rc = rc
        self.command = command or []

    @property
    def is_bug(self):
        return self.kind in BUG_KINDS

    def to_json(self):
        return {"kind": self.kind, "signature": self.signature,
                "message": self.message, "rc": self.rc,
                "elapsed": round(self.elapsed, 3), "command": self.command}


def _limit_fn(memory_mb):
    limits = []
    if memory_mb:
        b = int(memory_mb) * 1024 * 1024
        limits.append((resource.RLIMIT_AS, (b, b)))
    limits.append((resource.RLIMIT_CORE, (0, 0)))

    def fn():
        for what, lim in limits:
            resource.setrlimit(what, lim)
    return fn


def _cap(text, head=65536, tail=16384):
    if len(text) <= head + tail:
        return text
    return text[:head] + "\n[... %d characters cut ...]\n" % (
        len(text) - head - tail) + text[-tail:]


def run_cmd(cmd, timeout, memory_mb, cwd=None, env=None, grace=5.0):
    """Runs cmd in its own session with the limits. On timeout the process
    group gets SIGQUIT (LLVM prints a stack dump), then SIGKILL."""
    start = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=cwd, env=env, start_new_session=True,
                             preexec_fn=_limit_fn(memory_mb))
    except OSError as e:
        return RunResult(127, "tile-fuzz: cannot run %s: %s" % (cmd[0], e),
                         False, 0.0)
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig, wait in ((signal.SIGQUIT, grace), (signal.SIGKILL, None)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                out, err = p.communicate(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
    elapsed = time.monotonic() - start
    # A run that outlived its limit is over it even where this process,
    # descheduled on a loaded machine, found it finished on waking.
    if timeout is not None and elapsed > timeout:
        timed_out = True
    dec = lambda b: _cap(b.decode("utf-8", errors="replace"))
    return RunResult(p.returncode, dec(err), timed_out, elapsed, dec(out))


# --- signatures ---------------------------------------------------------------

def normalize(msg, limit=160):
    msg = re.sub(r"\x1b\[[0-9;]*m", "", msg)
    msg = re.sub(r"^(?:<unknown>:0:|[^\s:]+:\d+:\d+:)\s*", "", msg.strip())
    msg = re.sub(r"/[^\s:'\"]*/", "", msg)          # directories of paths
    msg = re.sub(r"0x[0-9a-fA-F]+", "0xH", msg)
    msg = re.sub(r"\d+", "N", msg)
    msg = re.sub(r"\s+", " ", msg).strip()
    return msg[:limit]


def _project_files():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    out = set()
    for sub in ("lib", "dialect", "capi", "tools", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, sub)):
            out.update(f for f in files if f.endswith((".cpp", ".h", ".inc")))
    return out


PROJECT_FILES = _project_files()


def _symbol(sym):
    """(function name without arguments, source file name or '')."""
    sym = re.sub(r"\s+\(/[^)]*\)$", "", sym.strip())      # (/path/lib+0x12)
    m = re.search(r"\s+([\w./+-]+):\d+(?::\d+)?$", sym)   # File.cpp:0:0
    src = os.path.basename(m.group(1)) if m else ""
    if m:
        sym = sym[:m.start()]
    sym = re.sub(r"^\(/[^()]*\)$", "", sym)                 # no symbol at all
    sym = sym.replace("(anonymous namespace)", "anon")
    sym = re.sub(r"\s*\((?:\.\w+(?:\.\d+)?)+\)", "", sym)  # (.isra.0)
    # Drop argument lists: cut at the first '(' at template depth 0.
    depth = 0
    for i, c in enumerate(sym):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth <= 0 and i > 0:
            sym = sym[:i]
            break
    sym = re.sub(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>", "<>", sym).strip()
    if " " in sym and not sym.startswith("operator"):
        sym = sym.rsplit(" ", 1)[1]                         # a return type
    return sym, src


def _frames(stderr, project=False):
    frames = []
    for line in stderr.splitlines():
        m = FRAME_RE.match(line)
        if m:
            s, src = _symbol(m.group("sym"))
            if not s or SKIP_FRAME_RE.search(s):
                continue
            if project and not (re.search(r"\btile\b|Tile[A-Z]", s) or
                                src in PROJECT_FILES):
                continue
            frames.append(s)
    return frames


def hang_frame(stderr):
    """Where a hang was, stably: the innermost pass being run."""
    for s in _frames(stderr):
        if s.endswith("runOnOperation") or s.endswith("runOnModule"):
            return s
    m = re.search(r"^\d+\.\s+Running pass '([^']*)'", stderr, re.M)
    return m.group(1) if m else ""


def crash_frame(stderr):
    """The most telling frame of a stack dump: the first one in tile code,
    else the first that is not the signal or error-handling machinery."""
    project = _frames(stderr, project=True)
    # A container or utility inlined into a project file is less telling
    # than the project function that called it.
    own = [f for f in project if not re.match(r"(llvm|std|mlir::detail)::", f)]
    frames = own or project or _frames(stderr)
    return frames[0] if frames else ""


def crash_headline(stderr, rc):
    m = re.search(r"LLVM ERROR: (.*)", stderr)
    if m:
        return "LLVM ERROR: " + normalize(m.group(1))
    m = re.search(r"Assertion `(.*)' failed", stderr)
    if m:
        return "Assertion `%s' failed" % normalize(m.group(1), 120)
    m = re.search(r"UNREACHABLE executed(?: at [^!\n]*)?!?\s*(.*)", stderr)
    if m:
        return "UNREACHABLE " + normalize(m.group(1), 100)
    m = SANITIZER_RE.search(stderr)
    if m:
        if m.group(1):
            return "%s: %s" % (m.group(1), m.group(2) or "")
        where = os.path.basename(m.group(3).strip().split(":")[0])
        return "runtime error: %s (%s)" % (normalize(m.group(4), 120), where)
    m = re.search(r"terminate called (.*)", stderr)
    if m:
        return "terminate called " + normalize(m.group(1), 100)
    if rc is not None and rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return "signal %d" % -rc
    return "exit %s" % rc


def _error_lines(stderr):
    return [l for l in stderr.splitlines() if ERROR_LINE_RE.search(l)
            and "runtime error:" not in l]


def classify(res, pipeline, tolerate_unlocated=False):
    """Outcome of one tile-opt run (the ptxas step is separate)."""
    err = res.stderr
    name = pipeline.name
    if res.timed_out:
        frame = hang_frame(err)
        return Outcome("hang", "hang @ " + frame if frame else "hang: " + name,
                       "timeout after %.0fs" % res.elapsed, err, res.elapsed, res.rc)
    crashed = (res.rc is not None and (res.rc < 0 or res.rc >= 128)) or \
        CRASH_RE.search(err) or SANITIZER_RE.search(err)
    if crashed and OOM_RE.search(err):
        frame = crash_frame(err)
        return Outcome("oom", "oom: %s%s" % (name, " @ " + frame if frame else ""),
                       "out of memory (limit: RLIMIT_AS)", err, res.elapsed, res.rc)
    if crashed:
        head = crash_headline(err, res.rc)
        frame = crash_frame(err)
        sig = "crash: %s%s" % (head, " @ " + frame if frame else "")
        return Outcome("crash", sig, head, err, res.elapsed, res.rc)
    errors = _error_lines(err)
    if res.rc == 0:
        if errors:
            return Outcome("error-but-exit-0",
                           "error-but-exit-0: " + normalize(errors[0]),
                           errors[0], err, res.elapsed, res.rc)
        return Outcome("ok", "ok", "", "", res.elapsed, res.rc)
    located = [l for l in errors if (lambda m: m and int(m.group("line")) > 0)(
        LOCATED_RE.match(l))]
    unlocated = [l for l in errors if l not in located]
    first = (errors or [l for l in err.splitlines() if l.strip()] or
             ["exit %s without a message" % res.rc])[0]
    # A round trip that failed; input the reader rejects (a located error
    # and no word of the round trip) is judged like any other pipeline's.
    if name == "roundtrip" and ("round-trip" in err or located != errors):
        return Outcome("roundtrip-error", "roundtrip-error: " + normalize(first),
                       first, err, res.elapsed, res.rc)
    # With fuzzed options, an option error may be reported without a source
    # location (or on the module, `file:0:0:`), but never at `<unknown>`.
    unknown = [l for l in unlocated if l.startswith("<unknown>")]
    tolerated = tolerate_unlocated or pipeline.odd_options
    if tolerated and re.search(r"^\S+: for the --[\w-]+ option:|<Pass-Options-Parser>",
                               err, re.M):
        # MLIR's pass option parser reports the bad value, then an empty
        # `<unknown>:0: error:`: a command-line error, not an IR one.
        unknown = []
    if unknown or ((unlocated or not errors) and not tolerated):
        msg = (unknown or unlocated or [first])[0]
        return Outcome("unlocated-error", "unlocated-error: " + normalize(msg),
                       msg, err, res.elapsed, res.rc)
    return Outcome("error", "error: " + normalize(first), first, err,
                   res.elapsed, res.rc)


def classify_ptxas(res):
    if res.timed_out:
        return Outcome("hang", "hang: ptxas", "ptxas timeout", res.stderr,
                       res.elapsed, res.rc)
    if res.rc == 0:
        return Outcome("ok", "ok", "", "", res.elapsed, res.rc)
    lines = [l for l in res.stderr.splitlines() if re.search(r"error|fatal", l, re.I)]
    first = lines[0] if lines else (res.stderr.strip().splitlines() or ["exit %s" % res.rc])[0]
    first_n = re.sub(r"^ptxas\s+[^,]*,\s*line\s+\d+;\s*", "ptxas ", first)
    return Outcome("ptxas-reject", "ptxas-reject: " + normalize(first_n), first,
                   res.stderr, res.elapsed, res.rc)


class Runner:
    """Runs one input through one pipeline: tile-opt, then ptxas on the PTX
    it wrote (tile-to-nvvm with format=isa)."""

    def __init__(self, tile_opt, ptxas=None, timeout=20.0, memory_mb=4096,
                 threading=False, env=None):
        self.tile_opt = tile_opt
        self.ptxas = ptxas
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.flags = BASE_FLAGS + ([] if threading else NO_THREADS)
        self.env = env

    def command(self, input_path, pipeline, workdir):
        args = [a.replace("@WORK@", workdir) for a in pipeline.args]
        return [self.tile_opt, input_path] + self.flags + args + ["-o", os.devnull]

    def run(self, input_path, pipeline, workdir, timeout=None, locate_hangs=True):
        """The Outcome of one run. A hang whose stack dump came out empty
        (SIGQUIT can land inside malloc, and then the dump aborts) is run
        once more, to name the pass it hangs in (locate_hangs)."""
        timeout = timeout or self.timeout
        if pipeline.emits_binary:
            for f in os.listdir(workdir):
                if f.endswith((".ptx", ".cubin", ".fatbin")):
                    os.unlink(os.path.join(workdir, f))
        cmd = self.command(input_path, pipeline, workdir)
        res = run_cmd(cmd, timeout, self.memory_mb, cwd=workdir, env=self.env)
        out = classify(res, pipeline)
        if out.kind == "hang" and " @ " not in out.signature and locate_hangs:
            again = classify(run_cmd(cmd, timeout, self.memory_mb, cwd=workdir,
                                     env=self.env), pipeline)
            if again.kind == "hang" and " @ " in again.signature:
                out = again
        out.command = cmd
        if out.kind != "ok" or not self.ptxas or pipeline.format != "isa":
            return out
        # Only the PTX the pipeline produced: a gpu.binary the input already
        # holds (tests of the host side write ones with placeholder text) is
        # written out by tile-emit-binary unchanged, and is not tile-opt's.
        try:
            with open(input_path, errors="replace") as src:
                given = set(re.findall(r"gpu\.binary\s+@([\w$.-]+)", src.read()))
        except OSError:
            given = set()
        ptx = sorted(f for f in os.listdir(workdir)
                     if f.endswith(".ptx") and f[:-len(".ptx")] not in given)
        for f in ptx:
            pcmd = [self.ptxas, "-arch=" + (pipeline.chip or "sm_90a"),
                    os.path.join(workdir, f), "-o", os.devnull]
            pres = classify_ptxas(run_cmd(pcmd, timeout, self.memory_mb,
                                          cwd=workdir, env=self.env))
            if pres.kind != "ok":
                pres.command = cmd
                pres.detail = "ptxas command: %s\n%s" % (" ".join(pcmd), pres.detail)
                return pres
        return out
