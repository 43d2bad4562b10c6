//===- tile-tune-time.c - Time the variants of a tuning run --------*- C
//-*-===//
//
// tile-tune-time WORKDIR --shapes 4096x4096x4096,... [--cache FILE]
//                [--timings TABLE] [--save-timings FILE] [--warmup N]
//                [--runs N] [--target-ms T | --iters N] [--device N]
//
// The timing phase of tile-tune, on its own so that it runs on a GPU
// machine without MLIR: it needs the work directory (the manifest and the
// variants' libraries, which tile-tune --compile-only wrote) and
// libtile_cuda_runtime.so, nothing else. For each shape it calls each
// variant's host function through its C interface on device buffers of
// random data (sizes from the dimension names of the function's
// `tile.shape` attributes), warms each up, then times --runs rounds of one
// run of back-to-back calls per variant in turn (about --target-ms each, or
// --iters calls) with CUDA events and takes each variant's median run; a
// call that fails (tileRtGetError) skips the variant with the runtime's
// message. Without a GPU, --timings TABLE gives
// the times instead. The winners are merged into the cache (docs/tuner.md);
// --save-timings FILE also writes every time (and every skip with its
// reason) as a table in the format --timings reads.
//
//===----------------------------------------------------------------------===//

#include "Tune.h"
#include "TuneArgs.h"

#include "tile_runtime.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage =
    "usage: tile-tune-time WORKDIR --shapes SHAPES [--cache FILE] "
    "[--timings TABLE]\n"
    "                      [--save-timings FILE] [--warmup N] [--runs N]\n"
    "                      [--target-ms T | --iters N] [--device N]\n"
    "\n"
    "Times the variants tile-tune --compile-only left in WORKDIR on each\n"
    "shape (or reads TABLE: lines 'SHAPE PARAMS MS' or 'SHAPE PARAMS fail\n"
    "MESSAGE') and merges the winners into the cache (default\n"
    "tile-tune.cache). --save-timings FILE writes every variant's time\n"
    "on every shape (or why it was skipped) to FILE in TABLE's format.\n"
    "docs/tuner.md.\n";

typedef struct {
  const char *workDir, *shapes, *cache, *timings, *saveTimings;
  int warmup, iters, runs, targetMs, device;
} Options;

/// Where a variant's time comes from: the GPU, or a table.
typedef struct {
  TileRtContext *ctx;
  char *table; /// the table's text, lines split in place
  char **rows; /// per row: shape, params, rest ("1.25" or "fail ...")
  size_t rowCount;
  TuneShape shape; /// the shape being timed
  char *shapeText;
  void **handles; /// per variant: its dlopen handle
  FILE *save;     /// --save-timings: every time or skip, one line each
} Timer;

/// The failure of the calls so far, as a new string; NULL if none.
static char *callFailure(Timer *t, int syncStatus) {
  if (tileRtGetError())
    return tuneStrdup(tileRtGetErrorMessage());
  if (syncStatus)
    return tuneStrdup(tileRtLastError(t->ctx));
  return NULL;
}

static int compareFloats(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

/// GPU milliseconds of `calls` back-to-back calls between two events.
static int timeCalls(Timer *t, void *fn, Buffers *b, int calls, float *ms) {
  TileRtEvent *start = NULL, *stop = NULL;
  int status = tileRtEventCreate(t->ctx, &start);
  if (status == 0)
    status = tileRtEventCreate(t->ctx, &stop);
  if (status == 0)
    status = tileRtEventRecord(t->ctx, start);
  for (int i = 0; i < calls && status == 0; ++i)
    tuneCall(fn, b);
  if (status == 0)
    status = tileRtEventRecord(t->ctx, stop);
  if (status == 0)
    status = tileRtSynchronize(t->ctx);
  if (status == 0)
    status = tileRtEventElapsedMs(t->ctx, start, stop, ms);
  if (start)
    tileRtEventDestroy(t->ctx, start);
  if (stop)
    tileRtEventDestroy(t->ctx, stop);
  return status;
}

/// Readies a variant for timing on the GPU: `o->warmup` calls, then the
/// calls of one run (`o->iters`, or as many as take about `o->targetMs`);
/// 0 and `*failure` if a call fails.
static int prepareOnGPU(Timer *t, const Options *o, void *fn, Buffers *b,
                        char **failure) {
  tileRtClearError();
  for (int i = 0; i < (o->warmup > 0 ? o->warmup : 1); ++i)
    tuneCall(fn, b);
  if ((*failure = callFailure(t, tileRtSynchronize(t->ctx))))
    return 0;
  int calls = o->iters;
  if (calls == 0) {
    float once = 0;
    int status = timeCalls(t, fn, b, 1, &once);
    if ((*failure = callFailure(t, status)))
      return 0;
    double estimate = once > 1e-3f ? o->targetMs / once : 1000;
    calls = estimate < 1 ? 1 : estimate > 100000 ? 100000 : (int)estimate;
  }
  return calls;
}

/// The index in `list` of the arguments for `signature` on the shape being
/// timed: made on first use, then kept for the shape's other variants; -1
/// and `error` if they cannot be made (then made again for the next
/// variant that needs them, which reports its own error).
static long buffersFor(Timer *t, const TuneManifest *m, Buffers **list,
                       size_t *count, const char *signature, char *error,
                       size_t size) {
  for (size_t i = 0; i < *count; ++i)
    if (!strcmp((*list)[i].signature, signature))
      return (long)i;
  *list = tuneRealloc(*list, (*count + 1) * sizeof(Buffers));
  Buffers *b = &(*list)[*count];
  if (!tuneMakeBuffers(t->ctx, &t->shape, signature, m->dims, b, error, size)) {
    tuneFreeBuffers(t->ctx, b);
    return -1;
  }
  return (long)(*count)++;
}

/// Whether the table row's parameters select `params`: each has the
/// variant's value, and the row names every parameter of the space.
static bool rowMatches(const char *rowParams, const char *params,
                       const char *space) {
  TuneParams row = {NULL, 0}, variant = {NULL, 0};
  bool ok =
      tuneParamsParse(rowParams, &row) && tuneParamsParse(params, &variant);
  for (size_t i = 0; ok && i < row.count; ++i) {
    const char *value = tuneParamsGet(&variant, row.items[i].name);
    ok = value && !strcmp(value, row.items[i].value);
  }
  char *storage;
  char *names[64];
  int count = tuneSplitNames(space, names, 64, &storage);
  for (int i = 0; ok && i < count; ++i)
    ok = tuneParamsGet(&row, names[i]) != NULL;
  free(storage);
  tuneParamsFree(&row);
  tuneParamsFree(&variant);
  return ok;
}

/// The time of a variant from the table; negative and `*failure` if the
/// table has none or says it failed.
static double timeFromTable(Timer *t, const TuneManifest *m,
                            const TuneVariant *v, char **failure) {
  for (size_t r = 0; r < t->rowCount; ++r) {
    char **row = &t->rows[3 * r];
    TuneShape shape;
    if (!tuneShapeParse(row[0], &shape) || shape.rank != t->shape.rank ||
        memcmp(shape.sizes, t->shape.sizes, sizeof(int64_t) * shape.rank) ||
        !rowMatches(row[1], v->params, m->space))
      continue;
    if (!strncmp(row[2], "fail", 4)) {
      const char *message = row[2] + 4;
      while (*message == ' ' || *message == '\t')
        ++message;
      *failure = tuneStrdup(*message ? message : "failed (--timings)");
      return -1;
    }
    char *end;
    double ms = strtod(row[2], &end);
    if (*end == 0 && ms >= 0)
      return ms;
  }
  *failure = tuneFormat("no time in %s", "the --timings table");
  return -1;
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

static int fail(const char *message) {
  fprintf(stderr, "tile-tune-time: error: %s\n", message);
  return 1;
}

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
  o->cache = "tile-tune.cache";
  o->warmup = 3;
  o->iters = 0; // calls per run: as many as fill targetMs
  o->runs = 5;
  o->targetMs = 25;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      exit(0);
    }
    const char **text = !strcmp(a, "--shapes")         ? &o->shapes
                        : !strcmp(a, "--cache")        ? &o->cache
                        : !strcmp(a, "--timings")      ? &o->timings
                        : !strcmp(a, "--save-timings") ? &o->saveTimings
                                                       : NULL;
    int *number = !strcmp(a, "--warmup")      ? &o->warmup
                  : !strcmp(a, "--iters")     ? &o->iters
                  : !strcmp(a, "--runs")      ? &o->runs
                  : !strcmp(a, "--target-ms") ? &o->targetMs
                  : !strcmp(a, "--device")    ? &o->device
                                              : NULL;
    if ((text || number) && i + 1 >= argc) {
      fprintf(stderr, "tile-tune-time: error: option '%s' needs a value\n", a);
      return 1;
    }
    if (text) {
      *text = argv[++i];
    } else if (number) {
      *number = atoi(argv[++i]);
      if (*number < 0 || ((number == &o->iters || number == &o->runs ||
                           number == &o->targetMs) &&
                          *number == 0)) {
        fprintf(stderr, "tile-tune-time: error: bad %s '%s'\n", a, argv[i]);
        return 1;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr,
              "tile-tune-time: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else if (!o->workDir) {
      o->workDir = a;
    } else {
      return fail("more than one work directory");
    }
  }
  if (!o->workDir)
    return fail("no work directory (see --help)");
  if (!o->shapes)
    return fail("no shapes: --shapes 4096x4096x4096,...");
  return 0;
}

static bool readTable(Timer *t, const char *path) {
  t->table = tuneReadFile(path);
  if (!t->table) {
    fprintf(stderr, "tile-tune-time: error: cannot read '%s'\n", path);
    return false;
  }
  char *cursor = t->table, *line;
  int number = 0;
  while ((line = tuneNextLine(&cursor))) {
    ++number;
    char *f[3];
    int n = tuneSplit(line, f, 3);
    if (n == 0)
      continue;
    TuneShape shape;
    if (n != 3 || !tuneShapeParse(f[0], &shape)) {
      fprintf(stderr,
              "tile-tune-time: error: %s:%d: expected 'SHAPE PARAMS MS' or "
              "'SHAPE PARAMS fail MESSAGE'\n",
              path, number);
      return false;
    }
    t->rows = tuneRealloc(t->rows, 3 * (t->rowCount + 1) * sizeof(char *));
    memcpy(&t->rows[3 * t->rowCount++], f, sizeof(f));
  }
  return true;
}

/// Checks that device `ordinal` is the chip the variants were built for.
static bool openDevice(Timer *t, const TuneManifest *m, int ordinal) {
  if (tileRtInit(&t->ctx, ordinal) != 0) {
    fprintf(stderr,
            "tile-tune-time: error: no GPU to time on (%s); give measured "
            "times with --timings TABLE\n",
            tileRtLastError(NULL));
    return false;
  }
  int major = 0, minor = 0, number = 0;
  char name[256] = "";
  tileRtDeviceComputeCapability(t->ctx, &major, &minor);
  tileRtDeviceName(t->ctx, name, sizeof(name));
  if (sscanf(m->chip, "sm_%d", &number) != 1 || number / 10 != major ||
      number % 10 != minor) {
    fprintf(stderr,
            "tile-tune-time: error: the variants are built for %s, but device "
            "%d is sm_%d%d (%s)\n",
            m->chip, ordinal, major, minor, name);
    return false;
  }
  printf("timing on %s (%s)\n", name, m->chip);
  return true;
}

/// Reports variant `i`'s time or failure on the shape being timed (the
/// progress line and the --save-timings row); frees `failure`.
static void report(Timer *t, const TuneManifest *m, size_t i, double ms,
                   char *failure, size_t done, size_t total, double *best) {
  const TuneVariant *v = &m->variants[i];
  if (t->save) {
    // One line: the message's line breaks would end the row early.
    for (char *c = failure; c && *c; ++c)
      if (*c == '\n' || *c == '\r')
        *c = ' ';
    if (failure)
      fprintf(t->save, "%s %s fail %s\n", t->shapeText, v->params, failure);
    else
      fprintf(t->save, "%s %s %.6f\n", t->shapeText, v->params, ms);
  }
  if (failure) {
    char *line = tuneDescribe(m, v->params);
    printf("  skipped %s: %s\n", line, failure);
    free(line);
    free(failure);
  } else if (*best < 0 || ms < *best) {
    *best = ms;
  }
  if (*best < 0)
    printf("  %zu/%zu variants, none timed yet\n", done, total);
  else
    printf("  %zu/%zu variants, best %.3f ms\n", done, total, *best);
  fflush(stdout);
}

/// Times every compiled variant on the GPU: each is loaded, warmed up and
/// calibrated, then `o->runs` rounds time one run of every variant in
/// turn, so that the GPU's clocks and temperature drift over the rounds
/// alike for all of them (timed one after the other, each variant's runs
/// met its own part of the drift: docs/perf.md run 91), in an order that
/// changes from round to round; `ms[variant]` is the median run's time per
/// call (negative for none).
static void timeShapeOnGPU(Timer *t, const Options *o, const TuneManifest *m,
                           double *ms, size_t total) {
  Buffers *buffers = NULL;
  size_t bufferCount = 0;
  void **fns = tuneAlloc(m->count * sizeof(void *));
  long *bufferOf = tuneAlloc(m->count * sizeof(long));
  int *calls = tuneAlloc(m->count * sizeof(int));
  float *runs = tuneAlloc(m->count * (size_t)o->runs * sizeof(float));
  size_t done = 0;
  double best = -1;
  // Load, warm up and calibrate; a failure is reported at once.
  for (size_t i = 0; i < m->count; ++i) {
    const TuneVariant *v = &m->variants[i];
    if (!v->ok)
      continue;
    char error[512] = "";
    char *failure = NULL;
    if (!t->handles[i]) {
      char *path = tuneFormat("%s/%s", o->workDir, v->library);
      t->handles[i] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!t->handles[i])
        snprintf(error, sizeof(error), "cannot load: %s", dlerror());
      free(path);
    }
    fns[i] = t->handles[i] ? dlsym(t->handles[i], m->function) : NULL;
    if (t->handles[i] && !fns[i])
      snprintf(error, sizeof(error), "the library has no '%s'", m->function);
    long buffer = -1;
    if (fns[i])
      buffer = buffersFor(t, m, &buffers, &bufferCount, v->signature, error,
                          sizeof(error));
    if (*error)
      failure = tuneStrdup(error);
    else
      calls[i] = prepareOnGPU(t, o, fns[i], &buffers[buffer], &failure);
    if (failure)
      report(t, m, i, -1, failure, ++done, total, &best);
    else
      bufferOf[i] = buffer;
  }
  // The rounds; the last one reports each variant's median. Each round
  // starts one variant later than the one before and every other round
  // runs backwards, so that no variant always takes the same place in the
  // round or follows the same one (docs/tuner.md).
  for (int r = 0; r < o->runs; ++r) {
    for (size_t j = 0; j < m->count; ++j) {
      size_t place = (j + (size_t)r) % m->count;
      size_t i = r % 2 ? m->count - 1 - place : place;
      if (!calls[i])
        continue;
      float *mine = &runs[i * (size_t)o->runs];
      tileRtClearError();
      int status =
          timeCalls(t, fns[i], &buffers[bufferOf[i]], calls[i], &mine[r]);
      mine[r] /= (float)calls[i];
      char *failure = callFailure(t, status);
      if (failure || r + 1 == o->runs) {
        if (!failure) {
          qsort(mine, (size_t)o->runs, sizeof(float), compareFloats);
          ms[i] = mine[o->runs / 2];
        }
        calls[i] = 0;
        report(t, m, i, ms[i], failure, ++done, total, &best);
      }
    }
  }
  for (size_t i = 0; i < bufferCount; ++i)
    tuneFreeBuffers(t->ctx, &buffers[i]);
  free(buffers);
  free(fns);
  free(bufferOf);
  free(calls);
  free(runs);
}

/// Times every compiled variant on the shape `t->shape`, from the GPU or
/// the table: `ms[variant]` (negative for none).
static void timeShape(Timer *t, const Options *o, const TuneManifest *m,
                      double *ms) {
  size_t total = 0, done = 0;
  for (size_t i = 0; i < m->count; ++i) {
    total += m->variants[i].ok;
    ms[i] = -1;
  }
  printf("shape %s:\n", t->shapeText);
  if (!t->table) {
    timeShapeOnGPU(t, o, m, ms, total);
    return;
  }
  double best = -1;
  for (size_t i = 0; i < m->count; ++i) {
    if (!m->variants[i].ok)
      continue;
    char *failure = NULL;
    ms[i] = timeFromTable(t, m, &m->variants[i], &failure);
    report(t, m, i, ms[i], failure, ++done, total, &best);
  }
}

int main(int argc, char **argv) {
  Options o;
  if (parseOptions(argc, argv, &o))
    return 1;
  TuneManifest m;
  char *manifestPath = tuneFormat("%s/" TUNE_MANIFEST_NAME, o.workDir);
  if (!tuneManifestRead(manifestPath, &m, "tile-tune-time"))
    return 1;
  char *storage;
  char *names[TUNE_MAX_DIMS];
  int rank = tuneSplitNames(m.dims, names, TUNE_MAX_DIMS, &storage);
  free(storage);

  TuneShape *shapes = NULL;
  char **shapeTexts = NULL;
  size_t shapeCount = 0;
  char *list = tuneStrdup(o.shapes);
  for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
    shapes = tuneRealloc(shapes, (shapeCount + 1) * sizeof(TuneShape));
    shapeTexts = tuneRealloc(shapeTexts, (shapeCount + 1) * sizeof(char *));
    if (!tuneShapeParse(s, &shapes[shapeCount]) ||
        shapes[shapeCount].rank != rank) {
      fprintf(stderr,
              "tile-tune-time: error: bad shape '%s': expected %d positive "
              "sizes (%s) like 4096x4096x512\n",
              s, rank, m.dims);
      return 1;
    }
    shapeTexts[shapeCount++] = s;
  }
  if (shapeCount == 0)
    return fail("no shapes");

  Timer t;
  memset(&t, 0, sizeof(t));
  if (o.timings ? !readTable(&t, o.timings) : !openDevice(&t, &m, o.device))
    return 1;
  t.handles = tuneAlloc(m.count * sizeof(void *));
  if (o.saveTimings) {
    t.save = fopen(o.saveTimings, "w");
    if (!t.save) {
      fprintf(stderr, "tile-tune-time: error: cannot write '%s'\n",
              o.saveTimings);
      return 1;
    }
    fprintf(t.save,
            "# tile-tune-time timings of %s: shape params ms | "
            "shape params fail reason\n",
            o.workDir);
  }
  double *ms = tuneAlloc(shapeCount * m.count * sizeof(double));
  for (size_t s = 0; s < shapeCount; ++s) {
    t.shape = shapes[s];
    t.shapeText = shapeTexts[s];
    timeShape(&t, &o, &m, &ms[s * m.count]);
  }

  if (t.save && fclose(t.save) != 0) {
    fprintf(stderr, "tile-tune-time: error: cannot write '%s'\n",
            o.saveTimings);
    return 1;
  }

  TuneCache cache = {NULL, 0};
  if (!tuneCacheRead(o.cache, &cache, true, "tile-tune-time"))
    return 1;
  size_t before = cache.count;
  tunePickWinners(&m, shapes, shapeTexts, shapeCount, ms, &cache);
  if (!tuneCacheWrite(o.cache, &cache)) {
    fprintf(stderr, "tile-tune-time: error: cannot write '%s'\n", o.cache);
    return 1;
  }
  printf("cache %s: %zu entries (%zu new)\n", o.cache, cache.count,
         cache.count - before);
  tileRtDestroy(t.ctx);
  return 0;
}
