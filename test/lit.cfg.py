# -*- Python -*-
import os
import platform

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_lib_dir", config.tile_lib_dir))
# The tile runtime as a shared library (tileRt* API and mgpu* ABI), for
# compiled host code: runtime/CMakeLists.txt.
config.substitutions.append(("%tile_cuda_runtime", os.path.join(config.tile_lib_dir, "libtile_cuda_runtime.so")))
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not`, `count`, `FileCheck` and `split-file` come from LLVM 22's tools.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
tools = [
    "tile-opt",
    "tile-compile",
    "tile-layout",
    "tile-layout-algebra-test",
    "tile-lds-banks-test",
    ToolSubst("%mlir_opt", os.path.join(config.mlir_tools_dir, "mlir-opt")),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Features.
# The stock mlir-runner of LLVM 22 (mlir-22-tools), which runs lowered
# modules against the tile runtime's mgpu ABI.
mlir_runner = os.path.join(config.mlir_tools_dir, "mlir-runner")
if os.path.exists(mlir_runner):
    config.available_features.add("mlir-runner")
    config.substitutions.append(("%mlir_runner", mlir_runner))

ptxas = "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# AMD code objects (tile-to-rocdl format=bin): upstream's serializer links
# with <ROCm folder>/llvm/bin/ld.lld. Without ROCm, a folder of that shape
# whose ld.lld is LLVM 22's (lld-22) stands in for it; tests use
# `rocm-path=%rocm_path`. llvm-readelf / llvm-objdump read the result.
ld_lld = os.path.join(config.llvm_tools_dir, "ld.lld")
if os.path.exists(ld_lld):
    rocm_path = os.path.join(config.test_exec_root, "rocm")
    rocm_lld = os.path.join(rocm_path, "llvm", "bin", "ld.lld")
    os.makedirs(os.path.dirname(rocm_lld), exist_ok=True)
    if os.path.realpath(rocm_lld) != os.path.realpath(ld_lld):
        if os.path.lexists(rocm_lld):
            os.remove(rocm_lld)
        os.symlink(ld_lld, rocm_lld)
    config.available_features.add("ld.lld")
    config.substitutions.append(("%rocm_path", rocm_path))

# The host's architecture, for tests of x86-64 host code.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86_64")

# GPU tests run only where a CUDA device is visible. CI machines have none.
if os.environ.get("TILE_GPU_TESTS") == "1" or os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")

# Sanitizer builds (-DTILE_ENABLE_SANITIZERS=ON, see the top-level
# CMakeLists.txt): the tools are built with AddressSanitizer and
# UndefinedBehaviorSanitizer. LLVM and MLIR allocate for the life of the
# process (static registries), which LeakSanitizer would report: leaks are
# not checked. LLVM's headers poison bump-allocator memory in instrumented
# code that the uninstrumented LLVM libraries then use: manual poisoning is
# ignored (allow_user_poisoning=0). C hosts compiled by RUN lines link the instrumented C library
# and need the sanitizer runtime too. Tests that load tile code into an
# uninstrumented host (the mlir-opt plugin) or link the installed package
# into a project built without sanitizers are unsupported there
# (`UNSUPPORTED: tile-sanitizers`, or in their lit.local.cfg).
if getattr(config, "tile_sanitizers", False):
    config.available_features.add("tile-sanitizers")
    for var, value in [("ASAN_OPTIONS", "detect_leaks=0:allow_user_poisoning=0"),
                       ("UBSAN_OPTIONS", "print_stacktrace=1")]:
        current = os.environ.get(var, "")
        config.environment[var] = value + (":" + current if current else "")
    config.c_compiler += " -fsanitize=address,undefined -fno-omit-frame-pointer"
