"""tile_mlir: compile tile-mlir kernels and call them from Python.

    import tile_mlir
    lib = tile_mlir.compile("examples/gemm.mlir", chip="sm_90a")
    lib.gemm(A, B, C)          # torch tensors, NumPy arrays, __dlpack__

A thin layer over the tools and the runtime (ctypes; no MLIR Python
bindings): ``compile`` runs tile-compile, which builds a shared library
that embeds a table of its functions; ``load`` opens such a library;
``tune`` runs tile-tune and loads the library of the winners. Calls launch
on the current stream (torch's for CUDA tensors), check their arguments
against the signature, and turn the runtime's errors into TileError.
docs/python.md has the details.
"""

import hashlib
import os
import tempfile

from ._errors import CompileError, TileError
from ._library import Function, Library
from ._tools import find_tool, run_tool

__all__ = ["compile", "load", "tune", "Library", "Function", "TileError",
           "CompileError", "version"]


def load(path):
    """Opens a library built by tile-compile (or tile-tune) and returns it
    as a Library whose attributes are its functions."""
    return Library(os.path.abspath(path))


def _source_file(source, work_dir):
    """The path of `source`: a file name, or MLIR text written to a file."""
    if "\n" not in source and os.path.exists(source):
        return os.path.abspath(source)
    if "\n" not in source and source.endswith(".mlir"):
        raise FileNotFoundError(source)
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    path = os.path.join(work_dir, "module-%s.mlir" % digest)
    with open(path, "w") as f:
        f.write(source)
    return path


def _work_dir(work_dir):
    if work_dir:
        os.makedirs(work_dir, exist_ok=True)
        return work_dir
    return tempfile.mkdtemp(prefix="tile_mlir-")


def _name(source_path, chip, extra):
    stem = os.path.splitext(os.path.basename(source_path))[0]
    digest = hashlib.sha256(("%s|%s|%r" % (source_path, chip, extra))
                            .encode()).hexdigest()[:8]
    return "lib%s-%s.so" % (stem, digest)


def compile(source, chip=None, defines=None, remarks=False, work_dir=None,
            options=None, header=False, format=None):
    """Compiles `source` (a .mlir file name or the MLIR text itself) with
    tile-compile for `chip` (default: the module's #tile.target, else
    sm_90a) and loads the library. `defines` gives ${NAME} placeholders
    their values (-D); `remarks` prints the compiler's decisions to stderr;
    `options` are more tile-to-nvvm options ("pipeline=0"); `header` also
    writes the C header next to the library; `format` is the GPU object
    format (bin, the default: a cubin; isa: PTX the driver compiles). Raises CompileError with the
    located diagnostics when the source is wrong."""
    work = _work_dir(work_dir)
    path = _source_file(source, work)
    argv = [find_tool("tile-compile"), path]
    if chip:
        argv += ["--chip", chip]
    if format:
        argv += ["--format", format]
    for name, value in sorted((defines or {}).items()):
        argv += ["-D", "%s=%s" % (name, value)]
    if options:
        argv += ["--pipeline-options", options]
    if remarks:
        argv.append("--remarks")
    library = os.path.join(work, _name(path, chip, (defines, options,
                                                    format)))
    argv += ["-o", library]
    if header:
        argv += ["--header", os.path.splitext(library)[0] + ".h"]
    output = run_tool(argv, "tile-compile")
    if remarks and output:
        import sys
        sys.stderr.write(output)
    return load(library)


def tune(source, space, shapes, chip=None, defines=None, cache=None,
         work_dir=None, warmup=None, iters=None, format=None, jobs=None,
         timings=None, save_timings=None):
    """Tunes `source` (a file with ${NAME} parameters) with tile-tune over
    `space` (a space file) for `shapes` (a list of (M, N, K) or strings
    "MxNxK") on this machine's GPU, and loads the library of the winners,
    which dispatches by shape. `cache` keeps the winners between runs;
    `timings` takes the times from a table instead of the GPU (tile-tune
    --timings, for tests); `save_timings` names a file to write every
    variant's time on every shape to (tile-tune --save-timings); `jobs`
    compiles that many variants at a time.
    Returns the library; its `tune_log` attribute holds tile-tune's
    report (progress, skipped variants and why, the winners)."""
    work = _work_dir(work_dir)
    path = _source_file(source, work)
    shape_text = ",".join(s if isinstance(s, str) else
                          "x".join(str(d) for d in s) for s in shapes)
    library = os.path.join(work, _name(path, chip, ("tuned", shape_text)))
    argv = [find_tool("tile-tune"), path, "--space", space,
            "--shapes", shape_text, "--work-dir", os.path.join(work, "tune"),
            "--cache", cache or os.path.join(work, "tune.cache"),
            "-o", library]
    if chip:
        argv += ["--chip", chip]
    for name, value in sorted((defines or {}).items()):
        argv += ["-D", "%s=%s" % (name, value)]
    if format:
        argv += ["--format", format]
    if jobs:
        argv += ["-j", str(jobs)]
    if timings:
        argv += ["--timings", timings]
    if save_timings:
        argv += ["--save-timings", save_timings]
    if warmup is not None:
        argv += ["--warmup", str(warmup)]
    if iters is not None:
        argv += ["--iters", str(iters)]
    log = run_tool(argv, "tile-tune")
    lib = load(library)
    lib.tune_log = log
    return lib


def version():
    """The version of tile-compile (the tile-mlir it belongs to)."""
    out = run_tool([find_tool("tile-compile"), "--version"], "tile-compile")
    return out.split()[2]
