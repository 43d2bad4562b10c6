#!/usr/bin/env bash
# Sets up tile-mlir on a Debian 12 machine: installs the build dependencies
# (as root, only the missing ones), configures the build directory if it is
# not configured yet, and builds everything. Safe to run again: each step is
# skipped or incremental when there is nothing to do.
#
# Environment:
#   BUILD_DIR       build directory (default: <repo>/build)
#   NINJA_JOBS      parallel build jobs (default: ninja's own choice)
#   TILE_SANITIZERS 1: configure with AddressSanitizer and
#                   UndefinedBehaviorSanitizer (-DTILE_ENABLE_SANITIZERS=ON),
#                   also switching an existing build
#                   directory to them (scripts/test.sh uses build-asan)
#   TILE_LIBFUZZER  1: also install clang-22 and libclang-rt-22-dev, and
#                   configure with clang and -DTILE_ENABLE_LIBFUZZER=ON (the
#                   libFuzzer targets; with TILE_SANITIZERS=1 the whole tree
#                   is built with both, as scripts/test.sh does in build-asan)
#   SETUP_TARGETS   ninja targets to build (default: all)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

# lld-22: tile-to-rocdl links AMD code objects (format=bin) with LLVM 22's
# ld.lld (the lit tests of the AMD backend use it). pkgconf: the test of the
# pkg-config files. python3-numpy: the tests of the Python package.
PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22
          ninja-build cmake g++ gcc pkgconf python3-numpy)
# The libFuzzer build: clang and its runtimes (libFuzzer, ASan).
if [[ "${TILE_LIBFUZZER:-0}" == 1 ]]; then
  PACKAGES+=(clang-22 libclang-rt-22-dev)
fi

log() { echo "setup: $*"; }

# --- 1. Packages -----------------------------------------------------------
is_installed() {
  dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'
}

missing=()
for pkg in "${PACKAGES[@]}"; do
  is_installed "$pkg" || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  log "all packages already installed"
else
  log "installing: ${missing[*]}"
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
      SUDO=(sudo)
    else
      echo "setup: error: need root (or sudo) to install ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  # A mirror hiccup should not fail a CI run: retry the network steps.
  for attempt in 1 2 3; do
    if "${SUDO[@]}" apt-get update -q &&
       "${SUDO[@]}" apt-get install -y -q "${missing[@]}" </dev/null; then
      break
    fi
    if ((attempt == 3)); then
      echo "setup: error: apt-get failed 3 times" >&2
      exit 1
    fi
    log "apt-get failed (attempt $attempt), retrying in 10 s"
    sleep 10
  done
fi

# --- 2. Configure ----------------------------------------------------------
BUILD_TYPE=Release
CC_NAME=gcc CXX_NAME=g++
EXTRA_CMAKE_ARGS=()
if [[ "${TILE_SANITIZERS:-0}" == 1 ]]; then
  EXTRA_CMAKE_ARGS+=(-DTILE_ENABLE_SANITIZERS=ON)
fi
if [[ "${TILE_LIBFUZZER:-0}" == 1 ]]; then
  CC_NAME=clang-22 CXX_NAME=clang++-22
  EXTRA_CMAKE_ARGS+=(-DTILE_ENABLE_LIBFUZZER=ON)
fi
if [[ -f "$BUILD_DIR/build.ninja" ]] &&
   { [[ "${TILE_SANITIZERS:-0}" != 1 ]] ||
     grep -q '^TILE_ENABLE_SANITIZERS:BOOL=ON$' "$BUILD_DIR/CMakeCache.txt"; } &&
   { [[ "${TILE_LIBFUZZER:-0}" != 1 ]] ||
     grep -q '^TILE_ENABLE_LIBFUZZER:BOOL=ON$' "$BUILD_DIR/CMakeCache.txt"; }; then
  log "build directory $BUILD_DIR already configured"
else
  log "configuring $BUILD_DIR${EXTRA_CMAKE_ARGS[*]:+ (${EXTRA_CMAKE_ARGS[*]})}"
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
    -DCMAKE_C_COMPILER="$CC_NAME" \
    -DCMAKE_CXX_COMPILER="$CXX_NAME" \
    "${EXTRA_CMAKE_ARGS[@]}"
fi

# --- 3. Build --------------------------------------------------------------
read -r -a targets <<< "${SETUP_TARGETS:-}"
log "building in $BUILD_DIR${targets[*]:+ (${targets[*]})}"
ninja -C "$BUILD_DIR" ${NINJA_JOBS:+-j "$NINJA_JOBS"} "${targets[@]}"
log "done: $BUILD_DIR${targets[*]:+ (${targets[*]})}"
