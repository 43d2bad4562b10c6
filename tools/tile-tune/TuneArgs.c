//===- TuneArgs.c - Arguments of a timed variant on the device ----*- C -*-===//

#include "TuneArgs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// Bytes per element of an element type: the number in its name, in bits
/// ("bf16", "f8E4M3FN", "i32"), at least 1; 8 for index.
static size_t elementBytes(const char *type) {
  while (*type && (*type < '0' || *type > '9'))
    ++type;
  int bits = atoi(type);
  return bits <= 0 ? 8 : (size_t)(bits + 7) / 8;
}

/// The next of a sequence of pseudo-random numbers (xorshift64*).
static uint64_t nextRandom(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1Dull;
}

/// Random values in [-1, 1) for floats, small integers otherwise, from
/// `state`.
static void fillRandom(char *data, size_t bytes, const char *type,
                       uint64_t *state) {
  size_t size = elementBytes(type);
  for (size_t i = 0; i + size <= bytes; i += size) {
    uint64_t bits = nextRandom(state);
    float value = (float)(bits >> 40) / (float)(1 << 24) * 2.0f - 1.0f;
    uint16_t half;
    if (!strcmp(type, "f16") || !strcmp(type, "bf16")) {
      half =
          type[0] == 'b' ? tileRtFloatToBF16(value) : tileRtFloatToHalf(value);
      memcpy(data + i, &half, 2);
    } else if (!strcmp(type, "f32")) {
      memcpy(data + i, &value, 4);
    } else if (!strcmp(type, "f64")) {
      double wide = value;
      memcpy(data + i, &wide, 8);
    } else {
      int64_t small = (int64_t)(bits % 7) - 3;
      memcpy(data + i, &small, size < 8 ? size : 8); // little endian
    }
  }
}

/// The size of a derived dimension, `[FACTOR*]ceil(NAME/DIVISOR)` or
/// `FACTOR*NAME` as tile.shape writes it (FP8 block scales: "ceil(K/128)";
/// 2:4-sparse values: "2*ceil(K/4)"; grouped-query attention: "4*HKV"), from
/// NAME's size; -1 when `text` is not one or NAME has no size.
static int64_t derivedExtent(const char *text, char **names,
                             const int64_t *sizes, int rank) {
  long long factor = 1;
  const char *star = strchr(text, '*');
  if (star) {
    char *end;
    factor = strtoll(text, &end, 10);
    if (factor <= 0 || end != star)
      return -1;
    text = star + 1;
  }
  size_t length = strlen(text);
  if (star && strncmp(text, "ceil(", 5)) {
    // FACTOR*NAME.
    for (int k = 0; k < rank; ++k)
      if (!strcmp(names[k], text))
        return factor * sizes[k];
    return -1;
  }
  if (strncmp(text, "ceil(", 5) || length < 8 || text[length - 1] != ')')
    return -1;
  const char *slash = strchr(text + 5, '/');
  if (!slash)
    return -1;
  char *end;
  long long divisor = strtoll(slash + 1, &end, 10);
  if (divisor <= 0 || end != text + length - 1)
    return -1;
  size_t nameLength = (size_t)(slash - (text + 5));
  for (int k = 0; k < rank; ++k)
    if (strlen(names[k]) == nameLength &&
        !strncmp(names[k], text + 5, nameLength))
      return factor * ((sizes[k] + divisor - 1) / divisor);
  return -1;
}

bool tuneMakeBuffers(TileRtContext *ctx, const TuneShape *shape,
                     const char *signature, const char *dims, Buffers *b,
                     char *error, size_t size) {
  memset(b, 0, sizeof(*b));
  b->signature = tuneStrdup(signature);
  char *storage;
  char *names[TUNE_MAX_DIMS];
  int rank = tuneSplitNames(dims, names, TUNE_MAX_DIMS, &storage);
  char *copy = tuneStrdup(signature);
  bool ok = true;
  for (char *arg = strtok(copy, ";"); ok && arg; arg = strtok(NULL, ";")) {
    char *open = strchr(arg, '['), *close = strrchr(arg, ']');
    if (b->count == TUNE_MAX_ARGS || !open || !close) {
      snprintf(error, size, "cannot call a function of %s", signature);
      ok = false;
      break;
    }
    *open = *close = 0;
    Argument *a = &b->args[b->count++];
    int64_t elements = 1;
    char *dimNames[TUNE_MAX_DIMS], *dimStorage;
    a->rank = *(open + 1) ? tuneSplitNames(open + 1, dimNames, TUNE_MAX_DIMS,
                                           &dimStorage)
                          : (dimStorage = NULL, 0);
    for (int d = 0; ok && d < a->rank; ++d) {
      int64_t extent = -1;
      for (int k = 0; k < rank; ++k)
        if (!strcmp(names[k], dimNames[d]))
          extent = shape->sizes[k];
      if (extent < 0 && dimNames[d][0] >= '0' && dimNames[d][0] <= '9') {
        // A number, not the factor of a derived size ("4*HKV").
        char *end;
        long long number = strtoll(dimNames[d], &end, 10);
        if (!*end)
          extent = number;
      }
      if (extent < 0)
        extent = derivedExtent(dimNames[d], names, shape->sizes, rank);
      if (extent < 0) {
        snprintf(error, size,
                 "argument #%d dimension %d ('%s') has no size: name it in "
                 "the function's tile.shape",
                 b->count - 1, d, dimNames[d]);
        ok = false;
      }
      a->descriptor[3 + d] = extent;
      elements *= extent;
    }
    free(dimStorage);
    for (int d = a->rank - 1, stride = 1; d >= 0; --d) {
      a->descriptor[3 + a->rank + d] = stride;
      stride *= (int)a->descriptor[3 + d];
    }
    if (!ok)
      break;
    size_t bytes = (size_t)elements * elementBytes(arg);
    TileRtDevicePtr ptr = 0;
    int status = tileRtMalloc(ctx, bytes ? bytes : 1, &ptr);
    if (status == 0) {
      // Random data throughout, as a benchmark's or an application's
      // matrices are, uploaded 1 MiB at a time.
      size_t chunk = bytes < (1u << 20) ? bytes : (1u << 20);
      char *host = tuneAlloc(chunk);
      uint64_t state = 0x9E3779B97F4A7C15ull * (uint64_t)b->count;
      for (size_t done = 0; status == 0 && done < bytes; done += chunk) {
        size_t part = bytes - done < chunk ? bytes - done : chunk;
        fillRandom(host, part, arg, &state);
        status = tileRtMemcpyHtoD(ctx, ptr + done, host, part);
      }
      free(host);
    }
    if (status != 0) {
      snprintf(error, size, "cannot allocate %zu bytes: %s", bytes,
               tileRtLastError(ctx));
      ok = false;
    }
    a->descriptor[0] = a->descriptor[1] = (int64_t)ptr;
  }
  free(copy);
  free(storage);
  return ok;
}

void tuneFreeBuffers(TileRtContext *ctx, Buffers *b) {
  for (int i = 0; i < b->count; ++i)
    tileRtFree(ctx, (TileRtDevicePtr)b->args[i].descriptor[0]);
  free(b->signature);
  memset(b, 0, sizeof(*b));
}

typedef void (*Fn1)(void *);
typedef void (*Fn2)(void *, void *);
typedef void (*Fn3)(void *, void *, void *);
typedef void (*Fn4)(void *, void *, void *, void *);
typedef void (*Fn5)(void *, void *, void *, void *, void *);
typedef void (*Fn6)(void *, void *, void *, void *, void *, void *);
typedef void (*Fn7)(void *, void *, void *, void *, void *, void *, void *);
typedef void (*Fn8)(void *, void *, void *, void *, void *, void *, void *,
                    void *);

void tuneCall(void *fn, Buffers *b) {
  void *a[TUNE_MAX_ARGS];
  for (int i = 0; i < b->count; ++i)
    a[i] = b->args[i].descriptor;
  switch (b->count) {
  case 1:
    ((Fn1)fn)(a[0]);
    break;
  case 2:
    ((Fn2)fn)(a[0], a[1]);
    break;
  case 3:
    ((Fn3)fn)(a[0], a[1], a[2]);
    break;
  case 4:
    ((Fn4)fn)(a[0], a[1], a[2], a[3]);
    break;
  case 5:
    ((Fn5)fn)(a[0], a[1], a[2], a[3], a[4]);
    break;
  case 6:
    ((Fn6)fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
  case 7:
    ((Fn7)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    break;
  default:
    ((Fn8)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    break;
  }
}
