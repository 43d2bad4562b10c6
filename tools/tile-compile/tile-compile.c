//===- tile-compile.c - Compile a tile module into a C library ----*- C -*-===//
//
// tile-compile INPUT.mlir -o libgemm.so [--header gemm.h] [options]
//
// Compiles a module of tile kernels and the host functions around them
// (tile-to-nvvm; tile-to-rocdl for AMD chips) into a shared library (or an
// object file, -c) whose public functions a C program calls with pointers to
// memref descriptors, and writes a C header declaring them. The library needs
// libtile_cuda_runtime.so (the mgpu runtime ABI) at run time; it is linked
// against it, with an rpath to it.
//
// `--chip sm_80,sm_90a` links one library for several NVIDIA chips
// (MultiChip.c). `${NAME}` placeholders in INPUT take their values from
// `-D NAME=VALUE`;
// with `--tuned CACHE` the library holds the winners tile-tune found for
// each function and a dispatcher that picks one per call by shape
// (Dispatch.c, docs/tuner.md).
//
// A library also exports `tile_mlir_signatures`, a JSON description of its
// functions (Library.c) for callers without MLIR, such as python/tile_mlir.
//
// Written in C over the tile-mlir C API: tileModuleEmitCHeader,
// tileModuleEmitSignatures, tileModuleEmitObjectFile (tile-c/Host.h) and the
// pass manager.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "Dispatch.h"
#include "Library.h"
#include "MultiChip.h"
#include "Tune.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Host.h"
#include "tile-c/Parse.h"
#include "tile-c/Registration.h"
#include "tile-c/Version.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const usage =
    "usage: tile-compile INPUT.mlir -o OUTPUT [options]\n"
    "\n"
    "Compiles the kernels and host functions of INPUT (tile-to-nvvm) into a\n"
    "shared library (OUTPUT, e.g. libgemm.so) or, with -c, an object file,\n"
    "exporting each public function f as void f(tile_memref_<r>d *, ...).\n"
    "\n"
    "options:\n"
    "  -o FILE               the shared library (or object file with -c)\n"
    "  -c                    write an object file, do not link\n"
    "  --header FILE         also write a C header declaring the functions\n"
    "  --chip CHIP[,CHIP...] target GPU (default: the module's, else sm_90a);\n"
    "                        several NVIDIA chips: one library that picks\n"
    "                        the image for the device at each call; gfx90a\n"
    "                        or gfx942: an AMD library (tile-to-rocdl,\n"
    "                        launched through HIP)\n"
    "  --format bin|isa|fatbin  GPU object format (default bin: a cubin)\n"
    "  --pipeline-options S  more tile-to-nvvm options, e.g. \"pipeline=0\"\n"
    "  -O N                  host code optimization level, 0-3 (default 2)\n"
    "  --runtime-dir DIR     where libtile_cuda_runtime.so is (default: the\n"
    "                        lib directory next to this tool's bin)\n"
    "  --rpath PATH          the library's run-time search path for the\n"
    "                        runtime (default: the runtime directory; e.g.\n"
    "                        '$ORIGIN' for a library shipped next to it)\n"
    "  --cc CC               the C compiler that links (default: $CC or cc)\n"
    "  --keep-llvm FILE      also write the lowered module (LLVM dialect)\n"
    "  --remarks             print what the compiler decided and why (the\n"
    "                        tile-to-nvvm option remarks=true)\n"
    "  -D NAME=VALUE         the value of the placeholder ${NAME} in INPUT\n"
    "  --tuned CACHE         build the winners of tile-tune's CACHE for the\n"
    "                        chip, with a dispatcher per tuned function\n"
    "  --keep-source FILE    also write the module as compiled (after -D\n"
    "                        and --tuned), before lowering\n"
    "  --version             print the tile-mlir and LLVM versions\n";

typedef struct {
  const char *input, *output, *header, *chip, *format, *extra, *runtimeDir;
  const char *cc, *keepLLVM, *rpath, *tuned, *keepSource;
  int optLevel;
  bool objectOnly, remarks;
  TuneParams defines;
} Options;

static int fail(const char *format, const char *detail) {
  fprintf(stderr, "tile-compile: error: ");
  fprintf(stderr, format, detail);
  fputc('\n', stderr);
  return 1;
}

static void writeToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/// The include guard of a header path: its file name, upper case, with
/// every other character an underscore.
static void headerGuard(const char *path, char *guard, size_t size) {
  const char *name = strrchr(path, '/');
  name = name ? name + 1 : path;
  size_t n = 0;
  if (!isalpha((unsigned char)name[0]) && n + 1 < size)
    guard[n++] = 'H';
  for (; *name && n + 1 < size; ++name)
    guard[n++] = isalnum((unsigned char)*name)
                     ? (char)toupper((unsigned char)*name)
                     : '_';
  guard[n] = 0;
}

/// The lib directory of this installation: <dir of this executable>/../lib.
static void defaultRuntimeDir(char *dir, size_t size) {
  char self[PATH_MAX - 8];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    snprintf(dir, size, "lib");
    return;
  }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = 0; // .../bin
  slash = strrchr(self, '/');
  if (slash)
    *slash = 0; // ...
  snprintf(dir, size, "%s/lib", self);
}

/// Whether the paths `a` and `b` name the same file (the same text, or the
/// same existing file).
static bool sameFile(const char *a, const char *b) {
  if (!strcmp(a, b))
    return true;
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/// Removes the output `path` this run wrote and failed to complete, if it
/// is a regular file: never a device such as /dev/full or /dev/null.
static void removeOutput(const char *path) {
  struct stat info;
  if (lstat(path, &info) == 0 && S_ISREG(info.st_mode))
    remove(path);
}

/// Writes the header text made before compiling to `path` (nothing when
/// `path` is null); 0 or 1 after a message.
static int writeHeader(const char *path, const char *text, size_t size) {
  if (!path)
    return 0;
  FILE *file = fopen(path, "w");
  if (!file)
    return fail("cannot write '%s'", path);
  bool ok = fwrite(text, 1, size, file) == size;
  if (fclose(file) != 0 || !ok) {
    removeOutput(path);
    return fail("cannot write the header '%s'", path);
  }
  return 0;
}

static int run(char *const argv[]) {
  pid_t pid;
  int status = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (status != 0)
    return fail("cannot run '%s'", argv[0]);
  if (waitpid(pid, &status, 0) < 0)
    return fail("waiting for '%s' failed", argv[0]);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fail("'%s' failed", argv[0]);
  return 0;
}

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
  o->format = "bin";
  o->optLevel = 2;
  o->cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char **value = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("tile-compile (tile-mlir) %s\nLLVM and MLIR %s\n",
             tileGetVersion(), tileGetLLVMVersion());
      exit(0);
    } else if (!strcmp(a, "-c")) {
      o->objectOnly = true;
      continue;
    } else if (!strcmp(a, "--remarks")) {
      o->remarks = true;
      continue;
    } else if (!strcmp(a, "-o")) {
      value = &o->output;
    } else if (!strcmp(a, "--header")) {
      value = &o->header;
    } else if (!strcmp(a, "--chip")) {
      value = &o->chip;
    } else if (!strcmp(a, "--format")) {
      value = &o->format;
    } else if (!strcmp(a, "--pipeline-options")) {
      value = &o->extra;
    } else if (!strcmp(a, "--runtime-dir")) {
      value = &o->runtimeDir;
    } else if (!strcmp(a, "--rpath")) {
      value = &o->rpath;
    } else if (!strcmp(a, "--cc")) {
      value = &o->cc;
    } else if (!strcmp(a, "--keep-llvm")) {
      value = &o->keepLLVM;
    } else if (!strcmp(a, "--tuned")) {
      value = &o->tuned;
    } else if (!strcmp(a, "--keep-source")) {
      value = &o->keepSource;
    } else if (!strncmp(a, "-D", 2)) {
      if (!a[2] && i + 1 >= argc)
        return fail("%s", "option '-D' needs a value");
      char error[512];
      if (!tuneParseDefine(a[2] ? a + 2 : argv[++i], &o->defines, error,
                           sizeof(error)))
        return fail("%s", error);
      continue;
    } else if (!strncmp(a, "-O", 2) && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->optLevel = a[2] - '0';
      continue;
    } else if (a[0] == '-' && a[1]) {
      return fail("unknown option '%s' (see --help)", a);
    } else if (!o->input) {
      o->input = a;
      continue;
    } else {
      return fail("more than one input ('%s')", a);
    }
    if (i + 1 >= argc)
      return fail("option '%s' needs a value", a);
    *value = argv[++i];
  }
  if (!o->input)
    return fail("%s", "no input file (see --help)");
  if (!o->output)
    return fail("%s", "no output file: -o FILE");
  // Outputs never replace the input, nor each other.
  const char *outputs[] = {o->output, o->header, o->keepLLVM, o->keepSource};
  for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); ++i) {
    if (!outputs[i])
      continue;
    if (sameFile(outputs[i], o->input))
      return fail("'%s' is the input: tile-compile does not overwrite it",
                  outputs[i]);
    for (size_t j = 0; j < i; ++j)
      if (outputs[j] && sameFile(outputs[i], outputs[j]))
        return fail("'%s' is given as two outputs", outputs[i]);
  }
  return 0;
}

int main(int argc, char **argv) {
  Options o;
  if (parseOptions(argc, argv, &o))
    return 1;
  diagnosticsPrintRemarks(o.remarks);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  tileRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, NULL, NULL);

  int status = 1;
  MlirModule module = {NULL};
  char *header = NULL; // the C header's text, made before compiling
  size_t headerSize = 0;
  char *signatures = NULL; // the function table (Library.h)
  size_t signaturesSize = 0;
  char *text = tuneReadFile(o.input);
  char *source = NULL; // the substituted text, kept for diagnostics
  bool *used = tuneAlloc(o.defines.count * sizeof(bool));
  if (!text) {
    // Reported by the parser: the file cannot be read.
    module = tileModuleCreateParseFromFile(
        ctx, mlirStringRefCreateFromCString(o.input));
  } else if (o.tuned) {
    module = tileBuildTunedModule(ctx, text, o.input, &o.defines, used, o.tuned,
                                  o.chip ? o.chip : "sm_90a");
    if (mlirModuleIsNull(module)) {
      free(text);
      free(used);
      goto done_context;
    }
  } else {
    // ${NAME} placeholders first; the parser checks the text for input
    // it would crash on.
    char *substituted = tuneSubstitute(text, o.input, &o.defines, used, stderr);
    if (!substituted) {
      for (size_t i = 0; i < o.defines.count; ++i)
        if (!used[i])
          fprintf(stderr, "tile-compile: warning: -D %s is not used by '%s'\n",
                  o.defines.items[i].name, o.input);
      fail("%s", "parameters without a value (see above)");
      free(text);
      free(used);
      goto done_context;
    }
    diagnosticsSetSource(o.input, substituted);
    module =
        tileModuleCreateParse(ctx, mlirStringRefCreateFromCString(substituted),
                              mlirStringRefCreateFromCString(o.input));
    source = substituted;
  }
  for (size_t i = 0; text && i < o.defines.count; ++i)
    if (!used[i])
      fprintf(stderr, "tile-compile: warning: -D %s is not used by '%s'\n",
              o.defines.items[i].name, o.input);
  bool readable = text != NULL;
  free(text);
  free(used);
  if (mlirModuleIsNull(module)) {
    fail(readable
             ? "'%s' is not valid: parsing and verifying it failed (see above)"
             : "cannot read '%s' (see above)",
         o.input);
    goto done_context;
  }
  if (publicFunctions(module, NULL, 0) == 0) {
    fail("'%s' has no public function: the library would export nothing",
         o.input);
    goto done;
  }

  // The header is made from the module as written, and written once the
  // library is: a failed compile leaves no output behind.
  if (o.header) {
    FILE *memory = open_memstream(&header, &headerSize);
    char guard[256];
    headerGuard(o.header, guard, sizeof(guard));
    bool ok = memory && mlirLogicalResultIsSuccess(tileModuleEmitCHeader(
                            module, mlirStringRefCreateFromCString(guard),
                            writeToFile, memory));
    if (!memory || fclose(memory) != 0 || !ok) {
      fail("cannot make the header '%s'", o.header);
      goto done;
    }
  }

  // The library's function table, made from the module as written too.
  if (!o.objectOnly) {
    FILE *memory = open_memstream(&signatures, &signaturesSize);
    bool ok = memory && mlirLogicalResultIsSuccess(tileModuleEmitSignatures(
                            module, writeToFile, memory));
    if (!memory || fclose(memory) != 0 || !ok) {
      fail("cannot describe the functions of '%s' (see above)", o.input);
      goto done;
    }
  }

  if (o.keepSource) {
    FILE *file = fopen(o.keepSource, "w");
    if (!file) {
      fail("cannot write '%s'", o.keepSource);
      goto done;
    }
    mlirOperationPrint(mlirModuleGetOperation(module), writeToFile, file);
    fclose(file);
  }

  // tile-to-nvvm, host included, into object files: one, or one per chip
  // and a dispatcher (MultiChip.c).
  ChipOptions chipOptions = {o.format, o.extra, o.remarks, o.optLevel};
  bool multiChip = o.chip && strchr(o.chip, ',');
  if (multiChip && (o.objectOnly || o.tuned || o.keepLLVM)) {
    fail("%s", "--chip with several chips builds a shared library: not with "
               "-c, --tuned or --keep-llvm");
    goto done;
  }
  char **objects = NULL;
  int numObjects = 0;
  if (multiChip) {
    if (compileChips(ctx, module, source, o.input, o.chip, &chipOptions,
                     o.output, &objects, &numObjects)) {
      for (int i = 0; i < numObjects; ++i) {
        remove(objects[i]);
        free(objects[i]);
      }
      free(objects);
      goto done;
    }
  } else {
    // The object file: the output itself, or a temporary one to link.
    objects = tuneAlloc(sizeof(char *));
    if (o.objectOnly) {
      objects[0] = tuneStrdup(o.output);
    } else {
      objects[0] = tuneFormat("%s.tmp-XXXXXX.o", o.output);
      int fd = mkstemps(objects[0], 2);
      if (fd < 0) {
        fail("cannot create a temporary file next to '%s'", o.output);
        free(objects[0]);
        free(objects);
        goto done;
      }
      close(fd);
    }
    numObjects = 1;
    if (compileToObject(ctx, module, o.chip, &chipOptions, o.input,
                        objects[0])) {
      removeOutput(objects[0]);
      free(objects[0]);
      free(objects);
      goto done;
    }
    if (o.keepLLVM) {
      FILE *file = fopen(o.keepLLVM, "w");
      if (!file) {
        fail("cannot write '%s'", o.keepLLVM);
        removeOutput(objects[0]);
        free(objects[0]);
        free(objects);
        goto done;
      }
      mlirOperationPrint(mlirModuleGetOperation(module), writeToFile, file);
      fclose(file);
    }
    if (o.objectOnly) {
      status = writeHeader(o.header, header, headerSize);
      if (status)
        removeOutput(objects[0]);
      free(objects[0]);
      free(objects);
      goto done;
    }
  }

  char runtimeDir[PATH_MAX];
  if (o.runtimeDir)
    snprintf(runtimeDir, sizeof(runtimeDir), "%s", o.runtimeDir);
  else
    defaultRuntimeDir(runtimeDir, sizeof(runtimeDir));
  char libFlag[PATH_MAX + 8], rpathFlag[PATH_MAX + 16];
  snprintf(libFlag, sizeof(libFlag), "-L%s", runtimeDir);
  snprintf(rpathFlag, sizeof(rpathFlag), "-Wl,-rpath,%s",
           o.rpath ? o.rpath : runtimeDir);
  char table[PATH_MAX];
  snprintf(table, sizeof(table), "%s.tmp-XXXXXX.c", o.output);
  int tableFd = mkstemps(table, 2);
  if (tableFd < 0 || (close(tableFd), writeSignatureSource(table, signatures,
                                                           signaturesSize))) {
    if (tableFd < 0)
      fail("cannot create a temporary file next to '%s'", o.output);
    else
      remove(table);
  } else {
    char shared[] = "-shared", pic[] = "-fPIC", dashO[] = "-o",
         runtime[] = "-ltile_cuda_runtime",
         noUndefined[] = "-Wl,--no-undefined";
    char cc[PATH_MAX], output[PATH_MAX];
    snprintf(cc, sizeof(cc), "%s", o.cc);
    snprintf(output, sizeof(output), "%s", o.output);
    char **link = tuneAlloc((size_t)(numObjects + 11) * sizeof(char *));
    int n = 0;
    link[n++] = cc, link[n++] = shared, link[n++] = pic, link[n++] = dashO;
    link[n++] = output;
    for (int i = 0; i < numObjects; ++i)
      link[n++] = objects[i];
    link[n++] = table, link[n++] = libFlag, link[n++] = rpathFlag;
    link[n++] = runtime, link[n++] = noUndefined, link[n] = NULL;
    status = run(link);
    free(link);
    remove(table);
    if (status == 0) {
      status = writeHeader(o.header, header, headerSize);
      if (status)
        removeOutput(o.output);
    }
  }
  for (int i = 0; i < numObjects; ++i) {
    remove(objects[i]);
    free(objects[i]);
  }
  free(objects);

done:
  free(header);
  free(signatures);
  mlirModuleDestroy(module);
done_context:
  mlirContextDestroy(ctx);
  free(source);
  tuneParamsFree(&o.defines);
  return status;
}
