//===- MultiChip.c - One library for several NVIDIA chips ---------*- C -*-===//
//
// `tile-compile --chip sm_80,sm_90a` links one library whose functions run
// on either chip: the module is compiled once per chip (kernels, layouts and
// instructions differ: mma.sync on sm_80, wgmma on sm_90a) with its public
// functions renamed `f__sm_80`, `f__sm_90a`, and a small dispatcher module,
// written here as MLIR and compiled by the same pipeline, defines `f`: it
// asks the runtime for the device's compute capability and calls the
// variant built for it (the C interface of each variant, so the descriptor
// ABI is the pipeline's). A device no variant runs on is an argument error
// of the call; without a driver the first variant runs, so that the call
// checks its arguments and reports the runtime's error as a one-chip
// library does.
//
//===----------------------------------------------------------------------===//

#include "MultiChip.h"
#include "FuncInfo.h"
#include "Tune.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "tile-c/Host.h"
#include "tile-c/Parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void writeToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/// Whether `path` is an executable file.
static bool executable(const char *path) { return access(path, X_OK) == 0; }

/// For AMD chips: the rocm-path tile-to-rocdl links code objects with
/// (<rocm-path>/llvm/bin/ld.lld). NULL when $ROCM_PATH or /opt/rocm has
/// one (the pipeline's default); else a new stand-in directory next to
/// `object` whose llvm/bin/ld.lld links to LLVM's ld.lld (lld-22: the one
/// found when tile-mlir was built, else ld.lld on $PATH), which the caller
/// removes with removeRocmStandIn. Sets `*error` when no ld.lld is found.
static char *rocmStandIn(const char *object, bool *error) {
  *error = false;
  const char *rocm = getenv("ROCM_PATH");
  char *lld =
      tuneFormat("%s/llvm/bin/ld.lld", rocm && *rocm ? rocm : "/opt/rocm");
  bool found = executable(lld);
  free(lld);
  if (found)
    return NULL;
  const char *candidates[] = {TILE_LD_LLD, "/usr/lib/llvm-22/bin/ld.lld"};
  const char *target = NULL;
  for (size_t i = 0; i < sizeof(candidates) / sizeof(*candidates); ++i)
    if (candidates[i][0] && executable(candidates[i])) {
      target = candidates[i];
      break;
    }
  if (!target) {
    fprintf(stderr, "tile-compile: error: no ld.lld to link the AMD code "
                    "object: install lld-22, or set ROCM_PATH to a ROCm "
                    "folder\n");
    *error = true;
    return NULL;
  }
  char *dir = tuneFormat("%s.tmp-rocm-XXXXXX", object);
  if (!mkdtemp(dir)) {
    fprintf(stderr, "tile-compile: error: cannot create '%s'\n", dir);
    free(dir);
    *error = true;
    return NULL;
  }
  char *llvm = tuneFormat("%s/llvm", dir),
       *bin = tuneFormat("%s/llvm/bin", dir),
       *link = tuneFormat("%s/llvm/bin/ld.lld", dir);
  if (mkdir(llvm, 0700) || mkdir(bin, 0700) || symlink(target, link)) {
    fprintf(stderr, "tile-compile: error: cannot make '%s'\n", link);
    *error = true;
  }
  free(llvm);
  free(bin);
  free(link);
  return dir;
}

static void removeRocmStandIn(char *dir) {
  if (!dir)
    return;
  char *link = tuneFormat("%s/llvm/bin/ld.lld", dir);
  char *bin = tuneFormat("%s/llvm/bin", dir),
       *llvm = tuneFormat("%s/llvm", dir);
  remove(link);
  rmdir(bin);
  rmdir(llvm);
  rmdir(dir);
  free(link);
  free(bin);
  free(llvm);
  free(dir);
}

int compileToObject(MlirContext ctx, MlirModule module, const char *chip,
                    const ChipOptions *options, const char *input,
                    const char *object) {
  bool amd = chip && !strncmp(chip, "gfx", 3);
  char *rocm = NULL;
  if (amd) {
    if (strcmp(options->format, "bin")) {
      fprintf(stderr,
              "tile-compile: error: --chip %s: an AMD library holds code "
              "objects: --format bin (not %s)\n",
              chip, options->format);
      return 1;
    }
    bool error = false;
    if (!options->extra || !strstr(options->extra, "rocm-path"))
      rocm = rocmStandIn(object, &error);
    if (error) {
      removeRocmStandIn(rocm);
      return 1;
    }
  }
  char *pipeline = tuneFormat(
      "builtin.module(%s{format=%s%s%s%s%s%s %s})",
      amd ? "tile-to-rocdl" : "tile-to-nvvm", options->format,
      chip ? " chip=" : "", chip ? chip : "", rocm ? " rocm-path=" : "",
      rocm ? rocm : "", options->remarks ? " remarks=true" : "",
      options->extra ? options->extra : "");
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  int status = 0;
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline),
                                writeToFile, stderr))) {
    fprintf(stderr, "\ntile-compile: error: invalid pipeline '%s'\n", pipeline);
    status = 1;
  } else if (mlirLogicalResultIsFailure(
                 mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr,
            "tile-compile: error: the %s pipeline failed on '%s'%s%s"
            " (see above)\n",
            amd ? "tile-to-rocdl" : "tile-to-nvvm", input, chip ? " for " : "",
            chip ? chip : "");
    status = 1;
  } else if (mlirLogicalResultIsFailure(tileModuleEmitObjectFile(
                 module, mlirStringRefCreateFromCString(object),
                 options->optLevel))) {
    fprintf(stderr, "tile-compile: error: cannot write the object file '%s'\n",
            object);
    status = 1;
  }
  mlirPassManagerDestroy(pm);
  free(pipeline);
  removeRocmStandIn(rocm);
  return status;
}

int publicFunctions(MlirModule module, MlirOperation *out, int max) {
  int n = 0;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length != 9 || strncmp(name.data, "func.func", 9))
      continue;
    if (mlirRegionIsNull(mlirOperationGetRegion(op, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue; // a declaration
    MlirAttribute visibility = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_visibility"));
    if (!mlirAttributeIsNull(visibility)) {
      MlirStringRef value = mlirStringAttrGetValue(visibility);
      if (value.length != 6 || strncmp(value.data, "public", 6))
        continue;
    }
    if (n < max)
      out[n] = op;
    ++n;
  }
  return n;
}

static char *symbolName(MlirOperation func) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirSymbolTableGetSymbolAttributeName()));
  char *text = tuneAlloc(name.length + 1);
  memcpy(text, name.data, name.length);
  text[name.length] = 0;
  return text;
}

/// Renames each public function `f` of `module` to `f__<chip>`.
static void renameFunctions(MlirModule module, const char *chip) {
  MlirOperation funcs[256];
  int n = publicFunctions(module, funcs, 256);
  MlirOperation root = mlirModuleGetOperation(module);
  for (int i = 0; i < n && i < 256; ++i) {
    char *old = symbolName(funcs[i]);
    char *renamed = tuneFormat("%s__%s", old, chip);
    mlirSymbolTableReplaceAllSymbolUses(mlirStringRefCreateFromCString(old),
                                        mlirStringRefCreateFromCString(renamed),
                                        root);
    mlirOperationSetAttributeByName(
        funcs[i], mlirSymbolTableGetSymbolAttributeName(),
        mlirStringAttrGet(mlirModuleGetContext(module),
                          mlirStringRefCreateFromCString(renamed)));
    free(old);
    free(renamed);
  }
}

/// The compute capability a chip name gives (sm_90a: 90), and whether it
/// only runs on exactly that capability (the `a` chips).
static bool chipCapability(const char *chip, int *cap, bool *exact) {
  if (strncmp(chip, "sm_", 3) || !isdigit((unsigned char)chip[3]) ||
      !isdigit((unsigned char)chip[4]))
    return false;
  *cap = (chip[3] - '0') * 10 + (chip[4] - '0');
  *exact = chip[5] == 'a';
  return chip[5] == 0 || (chip[5] == 'a' && chip[6] == 0);
}

/// The dispatcher module's text (see the file comment).
static char *dispatcherText(MlirOperation *funcs, int n, char **chips,
                            int numChips) {
  char *t = tuneStrdup(
      "func.func private @tileRtHostComputeCapability() -> i32\n"
      "func.func private @tileRtHostBegin(!llvm.ptr)\n"
      "func.func private @tileRtHostArgError(!llvm.ptr, !llvm.ptr)\n");
  char *list = tuneStrdup("");
  for (int c = 0; c < numChips; ++c) {
    char *next = tuneFormat("%s%s%s", list, c ? ", " : "", chips[c]);
    free(list);
    list = next;
  }
#define ADD(...)                                                               \
  do {                                                                         \
    char *piece = tuneFormat(__VA_ARGS__);                                     \
    char *joined = tuneFormat("%s%s", t, piece);                               \
    free(piece);                                                               \
    free(t);                                                                   \
    t = joined;                                                                \
  } while (0)
  for (int f = 0; f < n; ++f) {
    char *name = symbolName(funcs[f]);
    MlirType type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
        funcs[f], mlirStringRefCreateFromCString("function_type")));
    int numArgs = (int)mlirFunctionTypeGetNumInputs(type);
    char *types = tuneStrdup(""), *params = tuneStrdup(""),
         *args = tuneStrdup("");
    for (int i = 0; i < numArgs; ++i) {
      char *ty = tuneTypeString(mlirFunctionTypeGetInput(type, i));
      char *a = tuneFormat("%s%s%s", types, i ? ", " : "", ty);
      char *b = tuneFormat("%s%s%%a%d: %s", params, i ? ", " : "", i, ty);
      char *c = tuneFormat("%s%s%%a%d", args, i ? ", " : "", i);
      free(types);
      free(params);
      free(args);
      types = a, params = b, args = c;
      free(ty);
    }
    ADD("llvm.mlir.global internal constant @__tile_chips_%d_name(\"%s\\00\") "
        "{addr_space = 0 : i32}\n",
        f, name);
    ADD("llvm.mlir.global internal constant @__tile_chips_%d_message(\"no "
        "image in this library runs on this GPU (the library holds %s)\\00\") "
        "{addr_space = 0 : i32}\n",
        f, list);
    for (int c = 0; c < numChips; ++c)
      ADD("func.func private @%s__%s(%s) attributes {llvm.emit_c_interface}\n",
          name, chips[c], types);
    ADD("func.func @%s(%s) {\n"
        "  %%cap = func.call @tileRtHostComputeCapability() : () -> i32\n"
        "  %%zero = arith.constant 0 : i32\n"
        "  %%known = arith.cmpi sge, %%cap, %%zero : i32\n"
        "  scf.if %%known {\n",
        name, params);
    // Exact chips first, then the others from the newest.
    int order[64], m = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int c = 0; c < numChips && m < 64; ++c) {
        int cap;
        bool exact;
        chipCapability(chips[c], &cap, &exact);
        if (exact == (pass == 0))
          order[m++] = c;
      }
    for (int a = 0; a < m; ++a)
      for (int b = a + 1; b < m; ++b) {
        int ca, cb;
        bool ea, eb;
        chipCapability(chips[order[a]], &ca, &ea);
        chipCapability(chips[order[b]], &cb, &eb);
        if (ea == eb && cb > ca) {
          int tmp = order[a];
          order[a] = order[b];
          order[b] = tmp;
        }
      }
    for (int k = 0; k < m; ++k) {
      int cap;
      bool exact;
      chipCapability(chips[order[k]], &cap, &exact);
      if (exact)
        ADD("    %%c%d = arith.constant %d : i32\n"
            "    %%m%d = arith.cmpi eq, %%cap, %%c%d : i32\n",
            k, cap, k, k);
      else
        ADD("    %%c%d = arith.constant %d : i32\n"
            "    %%h%d = arith.constant %d : i32\n"
            "    %%l%d = arith.cmpi sge, %%cap, %%c%d : i32\n"
            "    %%u%d = arith.cmpi slt, %%cap, %%h%d : i32\n"
            "    %%m%d = arith.andi %%l%d, %%u%d : i1\n",
            k, cap, k, (cap / 10 + 1) * 10, k, k, k, k, k, k, k);
      ADD("    scf.if %%m%d {\n"
          "      func.call @%s__%s(%s) : (%s) -> ()\n"
          "    } else {\n",
          k, name, chips[order[k]], args, types);
    }
    ADD("      %%n = llvm.mlir.addressof @__tile_chips_%d_name : !llvm.ptr\n"
        "      %%msg = llvm.mlir.addressof @__tile_chips_%d_message : "
        "!llvm.ptr\n"
        "      func.call @tileRtHostBegin(%%n) : (!llvm.ptr) -> ()\n"
        "      func.call @tileRtHostArgError(%%n, %%msg) : (!llvm.ptr, "
        "!llvm.ptr) -> ()\n",
        f, f);
    for (int k = 0; k < m; ++k)
      ADD("    }\n");
    // No capability (no driver, no device): the first variant checks the
    // arguments and reports the same error a one-chip library would.
    ADD("  } else {\n"
        "    func.call @%s__%s(%s) : (%s) -> ()\n"
        "  }\n  return\n}\n",
        name, chips[0], args, types);
    free(name);
    free(types);
    free(params);
    free(args);
  }
#undef ADD
  free(list);
  return t;
}

static char *temporaryObject(const char *output, const char *tag) {
  char *path = tuneFormat("%s.tmp-%s-XXXXXX.o", output, tag);
  int fd = mkstemps(path, 2);
  if (fd < 0) {
    fprintf(stderr,
            "tile-compile: error: cannot create a temporary file next to "
            "'%s'\n",
            output);
    free(path);
    return NULL;
  }
  close(fd);
  return path;
}

int compileChips(MlirContext ctx, MlirModule module, const char *text,
                 const char *input, const char *chipList,
                 const ChipOptions *options, const char *output,
                 char ***objects, int *count) {
  char *copy = tuneStrdup(chipList);
  char *chips[32];
  int numChips = 0;
  for (char *save = NULL, *c = strtok_r(copy, ",", &save); c;
       c = strtok_r(NULL, ",", &save)) {
    int cap;
    bool exact;
    if (!chipCapability(c, &cap, &exact) || numChips == 32) {
      fprintf(stderr,
              "tile-compile: error: --chip %s: '%s' is not an NVIDIA chip "
              "(sm_80 ... sm_90a); a library for several chips holds "
              "NVIDIA chips only, at most 32\n",
              chipList, c);
      free(copy);
      return 1;
    }
    for (int i = 0; i < numChips; ++i)
      if (!strcmp(chips[i], c)) {
        fprintf(stderr, "tile-compile: error: --chip %s names %s twice\n",
                chipList, c);
        free(copy);
        return 1;
      }
    chips[numChips++] = c;
  }
  MlirOperation funcs[256];
  int numFuncs = publicFunctions(module, funcs, 256);
  for (int f = 0; f < numFuncs && f < 256; ++f) {
    MlirType type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
        funcs[f], mlirStringRefCreateFromCString("function_type")));
    if (mlirFunctionTypeGetNumResults(type) != 0) {
      char *name = symbolName(funcs[f]);
      fprintf(stderr,
              "tile-compile: error: --chip %s: '%s' returns a value; a "
              "library for several chips dispatches functions without "
              "results only\n",
              chipList, name);
      free(name);
      free(copy);
      return 1;
    }
  }
  if (numFuncs > 256) {
    fprintf(stderr, "tile-compile: error: more than 256 public functions\n");
    free(copy);
    return 1;
  }
  *objects = tuneAlloc((size_t)(numChips + 1) * sizeof(char *));
  *count = 0;
  int status = 0;
  for (int c = 0; c < numChips && !status; ++c) {
    MlirModule variant =
        tileModuleCreateParse(ctx, mlirStringRefCreateFromCString(text),
                              mlirStringRefCreateFromCString(input));
    char *object = temporaryObject(output, chips[c]);
    // Which chip the compiler's warnings and remarks below are about.
    fprintf(stderr, "tile-compile: compiling for %s\n", chips[c]);
    if (mlirModuleIsNull(variant) || !object) {
      status = 1;
    } else {
      renameFunctions(variant, chips[c]);
      (*objects)[(*count)++] = object;
      object = NULL;
      status = compileToObject(ctx, variant, chips[c], options, input,
                               (*objects)[*count - 1]);
    }
    free(object);
    if (!mlirModuleIsNull(variant))
      mlirModuleDestroy(variant);
  }
  if (!status) {
    char *dispatch = dispatcherText(funcs, numFuncs, chips, numChips);
    MlirModule dispatcher = tileModuleCreateParse(
        ctx, mlirStringRefCreateFromCString(dispatch),
        mlirStringRefCreateFromCString("<chip dispatcher>"));
    char *object = temporaryObject(output, "dispatch");
    if (mlirModuleIsNull(dispatcher) || !object) {
      fprintf(stderr, "tile-compile: error: the chip dispatcher does not "
                      "parse (see above)\n");
      status = 1;
      free(object);
    } else {
      (*objects)[(*count)++] = object;
      status = compileToObject(ctx, dispatcher, chips[0], options,
                               "<chip dispatcher>", object);
    }
    if (!mlirModuleIsNull(dispatcher))
      mlirModuleDestroy(dispatcher);
    free(dispatch);
  }
  free(copy);
  return status;
}
