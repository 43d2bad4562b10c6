//===- bench_options.c - Command lines of the kernel harnesses ----*- C -*-===//
//
// See bench_options.h.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *benchOptionValue(const char *arg, const char *name) {
  size_t length = strlen(name);
  if (strncmp(arg, name, length) == 0 && arg[length] == '=')
    return arg + length + 1;
  return NULL;
}

int benchParseBlock(const char *text, unsigned block[3]) {
  unsigned x = 0, y = 1, z = 1;
  int n = sscanf(text, "%u,%u,%u", &x, &y, &z);
  if (n < 1 || x == 0 || y == 0 || z == 0)
    return 0;
  block[0] = x;
  block[1] = y;
  block[2] = z;
  return 1;
}

int benchParseShapes(const char *text, BenchParseItemFn parse, void *items,
                     size_t itemSize, int maxItems, int *count,
                     const char *expected) {
  *count = 0;
  char *copy = strdup(text);
  int ok = copy != NULL;
  for (char *save = NULL, *item = copy ? strtok_r(copy, ",", &save) : NULL;
       ok && item; item = strtok_r(NULL, ",", &save)) {
    if (*count == maxItems ||
        !parse(item, (char *)items + (size_t)*count * itemSize)) {
      fprintf(stderr, "error: bad shape '%s' (expected %s)\n", item, expected);
      ok = 0;
      break;
    }
    ++*count;
  }
  free(copy);
  return ok && *count > 0;
}

//===----------------------------------------------------------------------===//
// Launch information
//===----------------------------------------------------------------------===//

int benchReadLaunchInfo(const char *path, BenchLaunchInfo *info) {
  memset(info, 0, sizeof(*info));
  info->sharedBytes = -1;
  FILE *file = fopen(path, "r");
  if (!file) {
    fprintf(stderr, "error: cannot open launch info '%s': %s\n", path,
            strerror(errno));
    return 0;
  }
  char line[512];
  while (fgets(line, sizeof(line), file)) {
    const char *value;
    line[strcspn(line, "\r\n")] = 0;
    if ((value = benchOptionValue(line, "shared_bytes"))) {
      info->sharedBytes = atoll(value);
    } else if ((value = benchOptionValue(line, "block"))) {
      if (!benchParseBlock(value, info->block)) {
        fprintf(stderr, "error: %s: bad block '%s'\n", path, value);
        fclose(file);
        return 0;
      }
      info->haveBlock = 1;
    } else if ((value = benchOptionValue(line, "kernel"))) {
      size_t length = strlen(value);
      if (length >= sizeof(info->kernel))
        length = sizeof(info->kernel) - 1;
      memcpy(info->kernel, value, length);
      info->kernel[length] = 0;
    }
  }
  fclose(file);
  return 1;
}

//===----------------------------------------------------------------------===//
// The shared options
//===----------------------------------------------------------------------===//

void benchOptionsInit(BenchOptions *opts, unsigned blockX) {
  memset(opts, 0, sizeof(*opts));
  opts->smem = -1;
  opts->block[0] = blockX;
  opts->block[1] = opts->block[2] = 1;
  opts->runs = 5;
  opts->warmup = 5;
  opts->targetMs = 50;
  opts->seed = 1234;
}

int benchParseOption(const char *arg, BenchOptions *opts,
                     void (*usage)(FILE *)) {
  const char *value;
  if ((value = benchOptionValue(arg, "--cubin"))) {
    opts->cubin = value;
  } else if ((value = benchOptionValue(arg, "--kernel"))) {
    opts->kernel = value;
  } else if ((value = benchOptionValue(arg, "--launch-info"))) {
    opts->launchInfo = value;
  } else if ((value = benchOptionValue(arg, "--smem"))) {
    opts->smem = atoll(value);
  } else if ((value = benchOptionValue(arg, "--block"))) {
    if (!benchParseBlock(value, opts->block)) {
      fprintf(stderr, "error: bad block size '%s'\n", value);
      return 0;
    }
    opts->blockSet = 1;
  } else if (!strcmp(arg, "--flush-l2")) {
    opts->flushL2 = 1;
  } else if ((value = benchOptionValue(arg, "--runs"))) {
    opts->runs = atoi(value);
  } else if ((value = benchOptionValue(arg, "--iters"))) {
    opts->iters = atoi(value);
  } else if ((value = benchOptionValue(arg, "--target-ms"))) {
    opts->targetMs = atof(value);
  } else if ((value = benchOptionValue(arg, "--warmup"))) {
    opts->warmup = atoi(value);
  } else if ((value = benchOptionValue(arg, "--seed"))) {
    opts->seed = strtoull(value, NULL, 10);
  } else if ((value = benchOptionValue(arg, "--offset"))) {
    char *end;
    opts->offset = strtoll(value, &end, 10);
    if (*end || opts->offset < 0 || opts->offset > 4096) {
      fprintf(stderr, "error: --offset expects 0 to 4096 elements\n");
      return 0;
    }
  } else if ((value = benchOptionValue(arg, "--device"))) {
    opts->device = atoi(value);
  } else if (arg[0] != '-' && !opts->cubin) {
    opts->cubin = arg;
  } else {
    fprintf(stderr, "error: unknown argument '%s'\n", arg);
    usage(stderr);
    return 0;
  }
  return 1;
}

void benchOptionsFinish(BenchOptions *opts) {
  if (opts->runs < 1)
    opts->runs = 1;
  if (opts->runs > kBenchMaxRuns)
    opts->runs = kBenchMaxRuns;
  if (opts->warmup < 0)
    opts->warmup = 0;
  if (opts->targetMs <= 0)
    opts->targetMs = 50;
}

int benchApplyLaunchInfo(BenchOptions *opts) {
  if (!opts->launchInfo)
    return 1;
  BenchLaunchInfo info;
  if (!benchReadLaunchInfo(opts->launchInfo, &info))
    return 0;
  if (opts->smem < 0)
    opts->smem = info.sharedBytes;
  if (info.haveBlock && !opts->blockSet)
    memcpy(opts->block, info.block, sizeof(opts->block));
  if (!opts->kernel && info.kernel[0]) {
    memcpy(opts->infoKernel, info.kernel, sizeof(opts->infoKernel));
    opts->kernel = opts->infoKernel;
  }
  return 1;
}
