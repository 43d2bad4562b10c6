# -*- Python -*-
import os

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
    "tile-layout",
    "tile-layout-algebra-test",
    ToolSubst("%mlir_opt", os.path.join(config.mlir_tools_dir, "mlir-opt")),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Features.
ptxas = "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# GPU tests run only where a CUDA device is visible. CI machines have none.
if os.environ.get("TILE_GPU_TESTS") == "1" or os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")
