//===- Winners.c - A tuning run's winners into the cache ----------*- C -*-===//
//
// After timing: the winner of each shape class and signature, printed and
// merged into the cache (docs/tuner.md).
//
//===----------------------------------------------------------------------===//

#include "Tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// "BM=64 BN=128": the searched parameters of a variant.
char *tuneDescribe(const TuneManifest *m, const char *params) {
  TuneParams all = {NULL, 0};
  tuneParamsParse(params, &all);
  char *storage;
  char *names[64];
  int count = tuneSplitNames(m->space, names, 64, &storage);
  char *text = tuneStrdup("");
  for (int i = 0; i < count; ++i) {
    const char *value = tuneParamsGet(&all, names[i]);
    char *grown = tuneFormat("%s%s%s=%s", text, i ? " " : "", names[i],
                             value ? value : "?");
    free(text);
    text = grown;
  }
  free(storage);
  tuneParamsFree(&all);
  return text;
}

/// Picks, per shape class and signature, the variant with the least mean
/// time over the class's shapes (the lower id on ties) and merges it into
/// `cache`.
void tunePickWinners(const TuneManifest *m, const TuneShape *shapes,
                     char **shapeTexts, size_t shapeCount, const double *ms,
                     TuneCache *cache) {
  bool *done = tuneAlloc(shapeCount * sizeof(bool));
  for (size_t s = 0; s < shapeCount; ++s) {
    if (done[s])
      continue;
    TuneShape cls = tuneShapeClass(&shapes[s]);
    bool *member = tuneAlloc(shapeCount * sizeof(bool));
    char *list = tuneStrdup("");
    for (size_t r = s; r < shapeCount; ++r) {
      TuneShape other = tuneShapeClass(&shapes[r]);
      if (memcmp(other.sizes, cls.sizes, sizeof(int64_t) * cls.rank))
        continue;
      member[r] = done[r] = true;
      char *grown = tuneFormat("%s%s%s", list, *list ? ";" : "", shapeTexts[r]);
      free(list);
      list = grown;
    }
    // Each signature in turn (in the order of the variants).
    for (size_t first = 0; first < m->count; ++first) {
      const char *signature = m->variants[first].signature;
      bool seen = !m->variants[first].ok;
      for (size_t j = 0; !seen && j < first; ++j)
        seen =
            m->variants[j].ok && !strcmp(m->variants[j].signature, signature);
      if (seen)
        continue;
      long winner = -1;
      double winnerMs = 0;
      for (size_t i = first; i < m->count; ++i) {
        const TuneVariant *v = &m->variants[i];
        if (!v->ok || strcmp(v->signature, signature))
          continue;
        double sum = 0;
        int n = 0;
        bool all = true;
        for (size_t r = 0; r < shapeCount; ++r) {
          if (!member[r])
            continue;
          all &= ms[r * m->count + i] >= 0;
          sum += ms[r * m->count + i];
          ++n;
        }
        if (all && (winner < 0 || sum / n < winnerMs)) {
          winner = (long)i;
          winnerMs = sum / n;
        }
      }
      if (winner < 0)
        continue;
      TuneEntry entry;
      TuneParams params = {NULL, 0};
      tuneParamsParse(m->variants[winner].params, &params);
      entry.chip = tuneStrdup(m->chip);
      entry.function = tuneStrdup(m->function);
      entry.signature = tuneStrdup(signature);
      entry.dims = tuneStrdup(m->dims);
      entry.cls = cls;
      entry.params = tuneParamsCanonical(&params);
      entry.ms = winnerMs;
      entry.shapes = tuneStrdup(list);
      tuneParamsFree(&params);
      char *clsText = tuneEntryClass(&entry);
      char *line = tuneDescribe(m, m->variants[winner].params);
      printf("winner %s %s: %s (%.3f ms)\n", clsText, signature, line,
             winnerMs);
      free(line);
      free(clsText);
      tuneCacheMerge(cache, &entry);
    }
    free(member);
    free(list);
  }
  free(done);
}
