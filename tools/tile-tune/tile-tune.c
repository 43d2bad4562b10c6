//===- tile-tune.c - Tune a kernel's parameters --------------------*- C
//-*-===//
//
// tile-tune SOURCE --space SPACE --shapes 4096x4096x4096,... [options]
//
// SOURCE is a module with `${NAME}` placeholders (tile sizes, threads,
// stages, ...); SPACE gives each parameter's values. tile-tune expands the
// cartesian product, compiles each variant with `tile-compile -D ...` into
// its own library in the work directory (in parallel), writes a manifest,
// then has tile-tune-time time every variant on every shape on the GPU (or
// read the times from --timings) and merge the winners into the cache; with
// -o it finally builds the tuned library (`tile-compile --tuned`).
//
// Written in C over the tile-mlir C API, which it needs only to read the
// tuned function's signature from each variant. docs/tuner.md.
//
//===----------------------------------------------------------------------===//

#include "FuncInfo.h"
#include "Space.h"
#include "Tune.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "tile-c/Parse.h"
#include "tile-c/Registration.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const usage =
    "usage: tile-tune SOURCE --space SPACE --shapes SHAPES [options]\n"
    "       tile-tune --time WORKDIR --shapes SHAPES [--cache FILE] "
    "[--timings TABLE]\n"
    "\n"
    "Compiles every variant of SOURCE's ${NAME} parameters in SPACE, times\n"
    "each on each shape and writes the winners to the cache (docs/tuner.md).\n"
    "\n"
    "options:\n"
    "  --space FILE          lines 'NAME = VALUE VALUE ...' ('#' comments)\n"
    "  --shapes LIST         problem shapes, e.g. 4096x4096x4096,1000x512x64\n"
    "  --dims NAMES          the dimensions of a shape (default M,N,K, with\n"
    "                        B first for 4 sizes; else the tile.shape order)\n"
    "  --function NAME       the function to tune (default: the only public "
    "one)\n"
    "  -D NAME=VALUE         a parameter with one value\n"
    "  --chip CHIP           the GPU to compile for (default sm_90a)\n"
    "  --format bin|isa|fatbin, --pipeline-options S: passed to tile-compile\n"
    "  -j N                  compile N variants at a time (default: CPUs)\n"
    "  --work-dir DIR        variants and manifest (default tile-tune-work)\n"
    "  --cache FILE          the cache to merge winners into (default\n"
    "                        tile-tune.cache)\n"
    "  --timings TABLE       take the times from TABLE, not from a GPU\n"
    "  --save-timings FILE   write every variant's time on every shape\n"
    "                        (or why it was skipped) to FILE, a TABLE\n"
    "  --warmup N            calls before timing (GPU; default 3)\n"
    "  --runs N, --target-ms T, --iters N\n"
    "                        the median of N timed runs (default 5) of\n"
    "                        back-to-back calls, about T ms each (default\n"
    "                        25) or N calls each (GPU)\n"
    "  --list                print the variants and stop\n"
    "  --compile-only        compile and write the manifest; time later with\n"
    "                        --time WORKDIR (tile-tune-time) on a GPU machine\n"
    "  -o LIB [--header H]   then build LIB with the winners "
    "(tile-compile --tuned)\n";

typedef struct {
  const char *source, *space, *shapes, *dims, *function, *chip, *format;
  const char *extra, *workDir, *cache, *timings, *saveTimings, *warmup, *iters,
      *runs;
  const char *targetMs, *output;
  const char *header;
  int jobs;
  bool list, compileOnly;
  TuneParams defines;
} Options;

static int fail(const char *message) {
  fflush(stdout);
  fprintf(stderr, "tile-tune: error: %s\n", message);
  return 1;
}

/// A tool next to this executable, else on PATH.
static char *siblingTool(const char *name) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash) {
      *slash = 0;
      char *path = tuneFormat("%s/%s", self, name);
      if (access(path, X_OK) == 0)
        return path;
      free(path);
    }
  }
  return tuneStrdup(name);
}

/// A command line of owned strings.
typedef struct {
  char **items;
  int count;
} Args;

static void arg(Args *a, const char *text) {
  a->items = tuneRealloc(a->items, (size_t)(a->count + 2) * sizeof(char *));
  a->items[a->count++] = tuneStrdup(text);
  a->items[a->count] = NULL;
}

static void freeArgs(Args *a) {
  for (int i = 0; i < a->count; ++i)
    free(a->items[i]);
  free(a->items);
  a->items = NULL;
  a->count = 0;
}

/// Runs argv (NULL-terminated); its exit status, or -1.
static int runTool(char **argv) {
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
    fprintf(stderr, "tile-tune: error: cannot run '%s'\n", argv[0]);
    return -1;
  }
  int status;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

//===----------------------------------------------------------------------===//
// Variants
//===----------------------------------------------------------------------===//

typedef struct {
  TuneParams params;
  char *signature, *dims, *reason;
  pid_t pid;
} Variant;

static void appendText(MlirStringRef text, void *userData) {
  char **reason = userData;
  char *grown = tuneFormat("%s%.*s", *reason, (int)text.length, text.data);
  free(*reason);
  *reason = grown;
}

/// Keeps the message of the first error in `*userData`; prints nothing.
static MlirLogicalResult keepFirstError(MlirDiagnostic diag, void *userData) {
  char **reason = userData;
  if (!*reason && mlirDiagnosticGetSeverity(diag) == MlirDiagnosticError) {
    *reason = tuneStrdup("");
    mlirDiagnosticPrint(diag, appendText, reason);
  }
  return mlirLogicalResultSuccess();
}

/// Parses the substituted source of `v` and records its function's
/// signature, or why it cannot.
static void readSignature(MlirContext ctx, const Options *o, const char *text,
                          char **function, Variant *v) {
  char *reason = NULL;
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, keepFirstError, &reason, NULL);
  MlirModule module =
      tileModuleCreateParse(ctx, mlirStringRefCreateFromCString(text),
                            mlirStringRefCreateFromCString(o->source));
  mlirContextDetachDiagnosticHandler(ctx, handler);
  if (mlirModuleIsNull(module)) {
    v->reason = reason ? reason : tuneStrdup("the source does not parse");
    return;
  }
  free(reason);
  char error[512];
  if (!*function &&
      !(*function = tuneDefaultFunc(module, error, sizeof(error)))) {
    v->reason = tuneStrdup(error);
  } else {
    MlirOperation func = tuneFindFunc(module, *function);
    if (mlirOperationIsNull(func) || !tuneFuncHasBody(func))
      v->reason = tuneFormat("no function '%s' with a body", *function);
    else if (!(v->signature =
                   tuneFuncSignature(func, &v->dims, error, sizeof(error))))
      v->reason = tuneStrdup(error);
  }
  mlirModuleDestroy(module);
}

/// The reason a compile failed: the message of the first "error: " line of
/// its log, else its exit status.
static char *compileFailure(const char *logPath, int status) {
  char *log = tuneReadFile(logPath);
  char *reason = NULL;
  if (log) {
    char *cursor = log, *line;
    while (!reason && (line = tuneNextLine(&cursor))) {
      char *error = strstr(line, "error: ");
      if (!error)
        continue;
      // "`ptxas` invocation failed. Log:": the log's first line says why.
      size_t n = strlen(error);
      char *next = n > 4 && !strcmp(error + n - 4, "Log:")
                       ? tuneNextLine(&cursor)
                       : NULL;
      reason =
          next ? tuneFormat("%s %s", error + 7, next) : tuneStrdup(error + 7);
    }
    free(log);
  }
  return reason ? reason
                : tuneFormat("tile-compile failed (exit status %d)", status);
}

/// Compiles the variants that have a signature, `jobs` at a time.
static void compileAll(const Options *o, Variant *variants, long count) {
  char *compiler = siblingTool("tile-compile");
  long next = 0, running = 0, done = 0, total = 0;
  for (long i = 0; i < count; ++i)
    total += !variants[i].reason;
  bool tty = isatty(STDERR_FILENO);
  while (next < count || running > 0) {
    if (next < count && running < o->jobs) {
      Variant *v = &variants[next];
      long id = next++;
      if (v->reason)
        continue;
      Args args = {NULL, 0};
      arg(&args, compiler);
      arg(&args, o->source);
      for (size_t i = 0; i < v->params.count; ++i) {
        char *define = tuneFormat("%s=%s", v->params.items[i].name,
                                  v->params.items[i].value);
        arg(&args, "-D");
        arg(&args, define);
        free(define);
      }
      char *library = tuneFormat("%s/v%ld.so", o->workDir, id);
      arg(&args, "-o");
      arg(&args, library);
      free(library);
      arg(&args, "--chip");
      arg(&args, o->chip);
      arg(&args, "--format");
      arg(&args, o->format);
      if (o->extra) {
        arg(&args, "--pipeline-options");
        arg(&args, o->extra);
      }
      char *log = tuneFormat("%s/v%ld.log", o->workDir, id);
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log,
                                       O_WRONLY | O_CREAT | O_TRUNC, 0644);
      posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
      if (posix_spawnp(&v->pid, compiler, &actions, NULL, args.items,
                       environ)) {
        v->reason = tuneFormat("cannot run '%s'", compiler);
        v->pid = 0;
      } else {
        ++running;
      }
      posix_spawn_file_actions_destroy(&actions);
      freeArgs(&args);
      free(log);
      continue;
    }
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0)
      break;
    for (long i = 0; i < count; ++i) {
      if (variants[i].pid != pid)
        continue;
      variants[i].pid = 0;
      --running;
      ++done;
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
      if (code != 0) {
        char *log = tuneFormat("%s/v%ld.log", o->workDir, i);
        variants[i].reason = compileFailure(log, code);
        free(log);
      }
      if (tty)
        fprintf(stderr, "\rcompiled %ld/%ld variants", done, total);
    }
  }
  if (tty && total)
    fputc('\n', stderr);
  free(compiler);
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
  o->chip = "sm_90a";
  o->format = "bin";
  o->workDir = "tile-tune-work";
  o->cache = "tile-tune.cache";
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cpus > 0 ? (int)cpus : 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char **value = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      exit(0);
    } else if (!strcmp(a, "--list")) {
      o->list = true;
      continue;
    } else if (!strcmp(a, "--compile-only")) {
      o->compileOnly = true;
      continue;
    } else if (!strncmp(a, "-D", 2)) {
      if (!a[2] && i + 1 >= argc)
        return fail("option '-D' needs a value");
      char error[512];
      if (!tuneParseDefine(a[2] ? a + 2 : argv[++i], &o->defines, error,
                           sizeof(error)))
        return fail(error);
      continue;
    } else if (!strcmp(a, "-j")) {
      if (i + 1 >= argc || atoi(argv[i + 1]) <= 0)
        return fail("option '-j' needs a positive number");
      o->jobs = atoi(argv[++i]);
      continue;
    }
    static const struct {
      const char *flag;
      size_t offset;
    } flags[] = {
#define FLAG(name, field) {name, offsetof(Options, field)}
        FLAG("--space", space),
        FLAG("--shapes", shapes),
        FLAG("--dims", dims),
        FLAG("--function", function),
        FLAG("--chip", chip),
        FLAG("--format", format),
        FLAG("--work-dir", workDir),
        FLAG("--cache", cache),
        FLAG("--timings", timings),
        FLAG("--save-timings", saveTimings),
        FLAG("--warmup", warmup),
        FLAG("--iters", iters),
        FLAG("--runs", runs),
        FLAG("--target-ms", targetMs),
        FLAG("-o", output),
        FLAG("--header", header),
        FLAG("--pipeline-options", extra),
#undef FLAG
    };
    for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); ++f)
      if (!strcmp(a, flags[f].flag))
        value = (const char **)((char *)o + flags[f].offset);
    if (value) {
      if (i + 1 >= argc) {
        fprintf(stderr, "tile-tune: error: option '%s' needs a value\n", a);
        return 1;
      }
      *value = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "tile-tune: error: unknown option '%s' (see --help)\n",
              a);
      return 1;
    } else if (!o->source) {
      o->source = a;
    } else {
      fprintf(stderr, "tile-tune: error: more than one source ('%s')\n", a);
      return 1;
    }
  }
  if (!o->source)
    return fail("no source (see --help)");
  if (!o->space)
    return fail("no search space: --space FILE");
  if (!o->shapes && !o->list)
    return fail("no shapes: --shapes 4096x4096x4096,...");
  if (o->header && !o->output)
    return fail("--header needs -o LIB");
  return 0;
}

/// Runs tile-tune-time on the work directory.
static int timeVariants(const Options *o) {
  char *timer = siblingTool("tile-tune-time");
  Args args = {NULL, 0};
  arg(&args, timer);
  arg(&args, o->workDir);
  arg(&args, "--shapes");
  arg(&args, o->shapes);
  arg(&args, "--cache");
  arg(&args, o->cache);
  const char *pairs[][2] = {
      {"--timings", o->timings}, {"--save-timings", o->saveTimings},
      {"--warmup", o->warmup},   {"--iters", o->iters},
      {"--runs", o->runs},       {"--target-ms", o->targetMs}};
  for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); ++i) {
    if (pairs[i][1]) {
      arg(&args, pairs[i][0]);
      arg(&args, pairs[i][1]);
    }
  }
  fflush(stdout);
  int status = runTool(args.items);
  freeArgs(&args);
  free(timer);
  return status == 0 ? 0 : 1;
}

/// Builds the tuned library: tile-compile SOURCE --tuned CACHE -o LIB.
static int buildLibrary(const Options *o) {
  char *compiler = siblingTool("tile-compile");
  Args args = {NULL, 0};
  const char *fixed[] = {compiler,   o->source, "--tuned", o->cache,
                         "-o",       o->output, "--chip",  o->chip,
                         "--format", o->format};
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); ++i)
    arg(&args, fixed[i]);
  if (o->header) {
    arg(&args, "--header");
    arg(&args, o->header);
  }
  if (o->extra) {
    arg(&args, "--pipeline-options");
    arg(&args, o->extra);
  }
  for (size_t i = 0; i < o->defines.count; ++i) {
    char *define = tuneFormat("%s=%s", o->defines.items[i].name,
                              o->defines.items[i].value);
    arg(&args, "-D");
    arg(&args, define);
    free(define);
  }
  fflush(stdout);
  int status = runTool(args.items);
  freeArgs(&args);
  free(compiler);
  if (status != 0)
    return 1;
  printf("wrote %s\n", o->output);
  return 0;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// Whether two comma-separated lists hold the same names.
static bool sameNames(const char *a, const char *b) {
  char *sa, *sb;
  char *na[TUNE_MAX_DIMS + 1], *nb[TUNE_MAX_DIMS + 1];
  int ca = tuneSplitNames(a, na, TUNE_MAX_DIMS + 1, &sa);
  int cb = tuneSplitNames(b, nb, TUNE_MAX_DIMS + 1, &sb);
  bool same = ca == cb;
  for (int i = 0; same && i < ca; ++i) {
    bool found = false;
    for (int j = 0; j < cb && !found; ++j)
      found = !strcmp(na[i], nb[j]);
    same = found;
  }
  free(sa);
  free(sb);
  return same;
}

static bool checkShapes(const char *list, const char *dims) {
  char *storage;
  char *names[TUNE_MAX_DIMS + 1];
  int rank = tuneSplitNames(dims, names, TUNE_MAX_DIMS + 1, &storage);
  free(storage);
  char *copy = tuneStrdup(list);
  bool ok = *copy != 0;
  for (char *s = strtok(copy, ","); ok && s; s = strtok(NULL, ",")) {
    TuneShape shape;
    if (!tuneShapeParse(s, &shape) || shape.rank != rank) {
      fprintf(stderr,
              "tile-tune: error: bad shape '%s': expected %d positive sizes "
              "(%s) like 4096x4096x512\n",
              s, rank, dims);
      ok = false;
    }
  }
  free(copy);
  return ok;
}

static MlirContext createContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  return ctx;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "--time")) {
    char *timer = siblingTool("tile-tune-time");
    argv[1] = timer;
    execvp(timer, argv + 1);
    fprintf(stderr, "tile-tune: error: cannot run '%s'\n", timer);
    return 1;
  }
  Options o;
  if (parseOptions(argc, argv, &o))
    return 1;
  Space space = {NULL, 0};
  if (!readSpace(o.space, &space))
    return 1;
  long count = 1;
  for (int i = 0; i < space.count; ++i) {
    if (tuneParamsGet(&o.defines, space.dims[i].name)) {
      fprintf(stderr,
              "tile-tune: error: parameter '%s' is in the space and given "
              "with -D\n",
              space.dims[i].name);
      return 1;
    }
    count *= space.dims[i].count;
    if (count > 100000)
      return fail("the space has more than 100000 variants");
  }
  char *source = tuneReadFile(o.source);
  if (!source) {
    fprintf(stderr, "tile-tune: error: cannot read '%s'\n", o.source);
    return 1;
  }

  // Every placeholder needs a value; every parameter should be used.
  TuneParams firstParams = {NULL, 0};
  variantParams(&space, 0, &firstParams);
  tuneParamsCopy(&firstParams, &o.defines);
  bool *used = tuneAlloc(firstParams.count * sizeof(bool));
  char *text = tuneSubstitute(source, o.source, &firstParams, used, stderr);
  if (!text)
    return 1;
  free(text);
  for (size_t i = 0; i < firstParams.count; ++i)
    if (!used[i])
      fprintf(stderr,
              "tile-tune: warning: parameter '%s' is not used by '%s'\n",
              firstParams.items[i].name, o.source);
  free(used);
  char *fixed = tuneParamsFormat(&o.defines);

  if (o.list) {
    printf("%ld variants of", count);
    for (int i = 0; i < space.count; ++i)
      printf(" %s", space.dims[i].name);
    printf("%s%s:\n", *fixed ? ", fixed " : "", fixed);
    for (long id = 0; id < count; ++id) {
      TuneParams params = {NULL, 0};
      variantParams(&space, id, &params);
      char *line = describe(&space, &params);
      printf("v%ld %s\n", id, line);
      free(line);
      tuneParamsFree(&params);
    }
    return 0;
  }

  if (mkdir(o.workDir, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "tile-tune: error: cannot create '%s'\n", o.workDir);
    return 1;
  }

  // Each variant's signature, from its substituted source.
  MlirContext ctx = createContext();
  Variant *variants = tuneAlloc((size_t)count * sizeof(Variant));
  char *function = o.function ? tuneStrdup(o.function) : NULL;
  const char *dims = NULL;
  for (long id = 0; id < count; ++id) {
    Variant *v = &variants[id];
    variantParams(&space, id, &v->params);
    tuneParamsCopy(&v->params, &o.defines);
    text = tuneSubstitute(source, o.source, &v->params, NULL, stderr);
    readSignature(ctx, &o, text, &function, v);
    free(text);
    if (!v->reason && !dims)
      dims = o.dims ? o.dims : tuneDefaultDimOrder(v->dims);
    if (!v->reason && !sameNames(v->dims, dims))
      v->reason = tuneFormat("its dimensions (%s) are not %s", v->dims, dims);
  }
  mlirContextDestroy(ctx);
  if (!dims) {
    fprintf(stderr, "tile-tune: error: no variant of '%s' can be tuned: %s\n",
            o.source, variants[0].reason);
    return 1;
  }
  if (!checkShapes(o.shapes, dims))
    return 1;

  compileAll(&o, variants, count);

  TuneManifest manifest = {tuneStrdup(o.source),
                           tuneStrdup(o.chip),
                           function,
                           tuneStrdup(dims),
                           NULL,
                           NULL,
                           (size_t)count};
  manifest.space = tuneStrdup("");
  for (int i = 0; i < space.count; ++i) {
    char *grown =
        tuneFormat("%s%s%s", manifest.space, i ? "," : "", space.dims[i].name);
    free(manifest.space);
    manifest.space = grown;
  }
  manifest.variants = tuneAlloc((size_t)count * sizeof(TuneVariant));
  long skipped = 0;
  for (long id = 0; id < count; ++id) {
    Variant *v = &variants[id];
    TuneVariant *m = &manifest.variants[id];
    m->id = (int)id;
    m->params = tuneParamsFormat(&v->params);
    m->ok = !v->reason;
    m->signature = v->signature;
    m->library = tuneFormat("v%ld.so", id);
    m->reason = v->reason;
    if (v->reason) {
      char *line = describe(&space, &v->params);
      printf("skipped %s: %s\n", line, v->reason);
      free(line);
      ++skipped;
    }
  }
  char *manifestPath = tuneFormat("%s/" TUNE_MANIFEST_NAME, o.workDir);
  if (!tuneManifestWrite(manifestPath, &manifest)) {
    fprintf(stderr, "tile-tune: error: cannot write '%s'\n", manifestPath);
    return 1;
  }
  printf("compiled %ld of %ld variants (%ld skipped): %s\n", count - skipped,
         count, skipped, manifestPath);
  if (skipped == count)
    return fail("no variant compiled");
  if (o.compileOnly) {
    printf("time them on a GPU machine with: tile-tune --time %s --shapes %s "
           "--cache %s\n",
           o.workDir, o.shapes, o.cache);
    return 0;
  }
  if (timeVariants(&o))
    return 1;
  return o.output ? buildLibrary(&o) : 0;
}
