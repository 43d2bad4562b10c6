"""Finding tile-mlir's tools and running them."""

import os
import shutil
import subprocess

from ._errors import CompileError

_HERE = os.path.dirname(os.path.abspath(__file__))


def tool_dirs():
    """Where the tools are looked for, in order: $TILE_MLIR_TOOLS, the build
    tree next to this source tree (<repo>/build/bin), an installation this
    package lies in (<prefix>/lib/python3/site-packages/tile_mlir ->
    <prefix>/bin), then $PATH."""
    dirs = []
    if os.environ.get("TILE_MLIR_TOOLS"):
        dirs.append(os.environ["TILE_MLIR_TOOLS"])
    repo = os.path.dirname(os.path.dirname(_HERE))
    dirs.append(os.path.join(repo, "build", "bin"))
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(_HERE))))
    dirs.append(os.path.join(prefix, "bin"))
    return dirs


def find_tool(name):
    for d in tool_dirs():
        path = os.path.join(d, name)
        if os.access(path, os.X_OK) and os.path.isfile(path):
            return path
    path = shutil.which(name)
    if path:
        return path
    raise FileNotFoundError(
        "%s not found (looked in %s and $PATH; set TILE_MLIR_TOOLS to the "
        "directory that holds it)" % (name, ", ".join(tool_dirs())))


def run_tool(argv, what):
    """Runs a tool; raises CompileError with its output when it fails."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise CompileError("%s failed (exit status %d)" % (what,
                                                           proc.returncode),
                           (proc.stdout + proc.stderr).strip())
    return proc.stdout + proc.stderr
