//===- Cache.c - Shapes, the tuning cache and the manifest ---------*- C
//-*-===//

#include "Tune.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

bool tuneShapeParse(const char *text, TuneShape *shape) {
  shape->rank = 0;
  const char *p = text;
  while (true) {
    if (*p < '0' || *p > '9' || shape->rank == TUNE_MAX_DIMS)
      return false;
    errno = 0;
    char *end;
    long long size = strtoll(p, &end, 10);
    if (errno || size <= 0 || size > (1LL << 40))
      return false;
    shape->sizes[shape->rank++] = size;
    if (!*end)
      return true;
    if (*end != 'x')
      return false;
    p = end + 1;
  }
}

void tuneShapeFormat(const TuneShape *shape, char *buffer, size_t size) {
  size_t n = 0;
  buffer[0] = 0;
  for (int i = 0; i < shape->rank && n < size; ++i)
    n += (size_t)snprintf(buffer + n, size - n, "%s%lld", i ? "x" : "",
                          (long long)shape->sizes[i]);
}

/// Bit length of `x` (0 for 0).
static int bitLength(int64_t x) {
  int length = 0;
  while (x > 0) {
    x >>= 1;
    ++length;
  }
  return length;
}

int tuneClassIndex(int64_t size) {
  int64_t x = (size > 1 ? size : 1) - 1;
  int length = bitLength(x);
  if (length < 3)
    return 4 * length;
  int quarter = (int)((x >> (length - 3)) & 3);
  return 4 * (length - 1) + quarter + 1;
}

int64_t tuneClassSize(int index) {
  int octave = index / 4, quarter = index % 4;
  // Quarters only occur from 2^2 on (tuneClassIndex).
  return ((int64_t)1 << octave) +
         (quarter ? quarter * ((int64_t)1 << (octave - 2)) : 0);
}

int64_t tuneRoundUpClass(int64_t size) {
  return tuneClassSize(tuneClassIndex(size));
}

TuneShape tuneShapeClass(const TuneShape *shape) {
  TuneShape cls = *shape;
  for (int i = 0; i < cls.rank; ++i)
    cls.sizes[i] = tuneRoundUpClass(cls.sizes[i]);
  return cls;
}

int tuneSplitNames(const char *list, char **names, int max, char **storage) {
  *storage = tuneStrdup(list);
  int count = 0;
  for (char *p = *storage; *p && count < max;) {
    names[count++] = p;
    char *comma = strchr(p, ',');
    if (!comma)
      break;
    *comma = 0;
    p = comma + 1;
  }
  return count;
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

char *tuneEntryClass(const TuneEntry *entry) {
  char *storage;
  char *names[TUNE_MAX_DIMS];
  int count = tuneSplitNames(entry->dims, names, TUNE_MAX_DIMS, &storage);
  char buffer[512];
  size_t n = 0;
  buffer[0] = 0;
  for (int i = 0; i < count && i < entry->cls.rank && n < sizeof(buffer); ++i)
    n += (size_t)snprintf(buffer + n, sizeof(buffer) - n, "%s%s=%lld",
                          i ? "," : "", names[i],
                          (long long)entry->cls.sizes[i]);
  free(storage);
  return tuneStrdup(buffer);
}

/// Parses "M=4096,N=4096,K=512" into the entry's dims and class.
static bool parseClass(const char *text, TuneEntry *entry) {
  TuneParams params = {NULL, 0};
  bool ok = tuneParamsParse(text, &params) && params.count > 0 &&
            params.count <= TUNE_MAX_DIMS;
  size_t length = 1;
  entry->cls.rank = 0;
  for (size_t i = 0; ok && i < params.count; ++i) {
    TuneShape size;
    ok = tuneShapeParse(params.items[i].value, &size) && size.rank == 1 &&
         size.sizes[0] == tuneRoundUpClass(size.sizes[0]);
    entry->cls.sizes[entry->cls.rank++] = size.sizes[0];
    length += strlen(params.items[i].name) + 1;
  }
  if (ok) {
    entry->dims = tuneAlloc(length);
    for (size_t i = 0; i < params.count; ++i) {
      if (i)
        strcat(entry->dims, ",");
      strcat(entry->dims, params.items[i].name);
    }
  }
  tuneParamsFree(&params);
  return ok;
}

static void freeEntry(TuneEntry *entry) {
  free(entry->chip);
  free(entry->function);
  free(entry->signature);
  free(entry->dims);
  free(entry->params);
  free(entry->shapes);
}

bool tuneCacheRead(const char *path, TuneCache *cache, bool missingOk,
                   const char *tool) {
  char *text = tuneReadFile(path);
  if (!text) {
    if (missingOk && errno == ENOENT)
      return true;
    fprintf(stderr, "%s: error: cannot read the cache '%s'\n", tool, path);
    return false;
  }
  char *cursor = text, *line;
  int number = 0;
  bool ok = true;
  while (ok && (line = tuneNextLine(&cursor))) {
    ++number;
    if (number == 1) {
      if (strcmp(line, TUNE_CACHE_HEADER)) {
        fprintf(stderr,
                "%s: error: %s:1: not a tile-tune cache (the first line is "
                "not '" TUNE_CACHE_HEADER "')\n",
                tool, path);
        ok = false;
      }
      continue;
    }
    char *f[8];
    int n = tuneSplit(line, f, 8);
    if (n == 0)
      continue;
    TuneEntry entry;
    memset(&entry, 0, sizeof(entry));
    char *end = NULL;
    TuneParams params = {NULL, 0};
    if (n == 7) {
      entry.ms = strtod(f[5], &end);
      ok = parseClass(f[3], &entry) && tuneParamsParse(f[4], &params) &&
           *end == 0 && entry.ms >= 0;
    } else {
      ok = false;
    }
    if (!ok) {
      fprintf(stderr,
              "%s: error: %s:%d: expected 'CHIP FUNCTION SIGNATURE CLASS "
              "PARAMS MS SHAPES'\n",
              tool, path, number);
      freeEntry(&entry);
      tuneParamsFree(&params);
      break;
    }
    entry.chip = tuneStrdup(f[0]);
    entry.function = tuneStrdup(f[1]);
    entry.signature = tuneStrdup(f[2]);
    entry.params = tuneParamsCanonical(&params);
    entry.shapes = tuneStrdup(f[6]);
    tuneParamsFree(&params);
    tuneCacheMerge(cache, &entry);
  }
  free(text);
  return ok;
}

static bool sameKey(const TuneEntry *a, const TuneEntry *b) {
  if (strcmp(a->chip, b->chip) || strcmp(a->function, b->function) ||
      strcmp(a->signature, b->signature) || strcmp(a->dims, b->dims) ||
      a->cls.rank != b->cls.rank)
    return false;
  for (int i = 0; i < a->cls.rank; ++i)
    if (a->cls.sizes[i] != b->cls.sizes[i])
      return false;
  return true;
}

void tuneCacheMerge(TuneCache *cache, TuneEntry *entry) {
  for (size_t i = 0; i < cache->count; ++i) {
    if (sameKey(&cache->items[i], entry)) {
      freeEntry(&cache->items[i]);
      cache->items[i] = *entry;
      return;
    }
  }
  cache->items =
      tuneRealloc(cache->items, (cache->count + 1) * sizeof(TuneEntry));
  cache->items[cache->count++] = *entry;
}

int tuneEntryCompare(const void *pa, const void *pb) {
  const TuneEntry *a = pa, *b = pb;
  int c;
  if ((c = strcmp(a->chip, b->chip)) ||
      (c = strcmp(a->function, b->function)) ||
      (c = strcmp(a->signature, b->signature)) ||
      (c = strcmp(a->dims, b->dims)))
    return c;
  for (int i = 0; i < a->cls.rank && i < b->cls.rank; ++i)
    if (a->cls.sizes[i] != b->cls.sizes[i])
      return a->cls.sizes[i] < b->cls.sizes[i] ? -1 : 1;
  return a->cls.rank - b->cls.rank;
}

bool tuneCacheWrite(const char *path, TuneCache *cache) {
  qsort(cache->items, cache->count, sizeof(TuneEntry), tuneEntryCompare);
  char *temporary = tuneFormat("%s.tmp.%d", path, (int)getpid());
  FILE *file = fopen(temporary, "w");
  if (!file) {
    free(temporary);
    return false;
  }
  fputs(TUNE_CACHE_HEADER "\n"
                          "# chip function signature class params ms shapes\n",
        file);
  for (size_t i = 0; i < cache->count; ++i) {
    const TuneEntry *e = &cache->items[i];
    char *cls = tuneEntryClass(e);
    fprintf(file, "%s %s %s %s %s %.4f %s\n", e->chip, e->function,
            e->signature, cls, e->params, e->ms, e->shapes);
    free(cls);
  }
  bool ok = fclose(file) == 0 && rename(temporary, path) == 0;
  if (!ok)
    remove(temporary);
  free(temporary);
  return ok;
}

void tuneCacheFree(TuneCache *cache) {
  for (size_t i = 0; i < cache->count; ++i)
    freeEntry(&cache->items[i]);
  free(cache->items);
  cache->items = NULL;
  cache->count = 0;
}

//===----------------------------------------------------------------------===//
// The manifest
//===----------------------------------------------------------------------===//

bool tuneManifestWrite(const char *path, const TuneManifest *m) {
  FILE *file = fopen(path, "w");
  if (!file)
    return false;
  fprintf(file,
          TUNE_MANIFEST_HEADER "\nsource %s\nchip %s\nfunction %s\ndims %s\n"
                               "space %s\n",
          m->source, m->chip, m->function, m->dims, m->space);
  fputs("# variant ID PARAMS ok SIGNATURE LIBRARY | variant ID PARAMS "
        "skipped REASON\n",
        file);
  for (size_t i = 0; i < m->count; ++i) {
    const TuneVariant *v = &m->variants[i];
    if (v->ok)
      fprintf(file, "variant %d %s ok %s %s\n", v->id, v->params, v->signature,
              v->library);
    else
      fprintf(file, "variant %d %s skipped %s\n", v->id, v->params, v->reason);
  }
  return fclose(file) == 0;
}

bool tuneManifestRead(const char *path, TuneManifest *m, const char *tool) {
  memset(m, 0, sizeof(*m));
  char *text = tuneReadFile(path);
  if (!text) {
    fprintf(stderr, "%s: error: cannot read '%s'\n", tool, path);
    return false;
  }
  char *cursor = text, *line;
  int number = 0;
  bool ok = true;
  while (ok && (line = tuneNextLine(&cursor))) {
    if (++number == 1) {
      ok = !strcmp(line, TUNE_MANIFEST_HEADER);
      continue;
    }
    char *f[5];
    int n = tuneSplit(line, f, 5);
    if (n == 0)
      continue;
    char **field = NULL;
    if (!strcmp(f[0], "source"))
      field = &m->source;
    else if (!strcmp(f[0], "chip"))
      field = &m->chip;
    else if (!strcmp(f[0], "function"))
      field = &m->function;
    else if (!strcmp(f[0], "dims"))
      field = &m->dims;
    else if (!strcmp(f[0], "space"))
      field = &m->space;
    if (field) {
      ok = n == 2 && !*field;
      if (ok)
        *field = tuneStrdup(f[1]);
      continue;
    }
    ok = !strcmp(f[0], "variant") && n >= 5;
    if (!ok)
      break;
    TuneVariant v;
    memset(&v, 0, sizeof(v));
    v.id = atoi(f[1]);
    v.params = tuneStrdup(f[2]);
    v.ok = !strcmp(f[3], "ok");
    if (v.ok) {
      char *g[2];
      ok = tuneSplit(f[4], g, 2) == 2;
      if (ok) {
        v.signature = tuneStrdup(g[0]);
        v.library = tuneStrdup(g[1]);
      }
    } else {
      ok = !strcmp(f[3], "skipped");
      v.reason = tuneStrdup(f[4]);
    }
    m->variants =
        tuneRealloc(m->variants, (m->count + 1) * sizeof(TuneVariant));
    m->variants[m->count++] = v;
  }
  free(text);
  ok = ok && m->source && m->chip && m->function && m->dims && m->space;
  if (!ok)
    fprintf(stderr, "%s: error: %s:%d: malformed manifest\n", tool, path,
            number);
  return ok;
}

void tuneManifestFree(TuneManifest *m) {
  free(m->source);
  free(m->chip);
  free(m->function);
  free(m->dims);
  free(m->space);
  for (size_t i = 0; i < m->count; ++i) {
    free(m->variants[i].params);
    free(m->variants[i].signature);
    free(m->variants[i].library);
    free(m->variants[i].reason);
  }
  free(m->variants);
  memset(m, 0, sizeof(*m));
}
