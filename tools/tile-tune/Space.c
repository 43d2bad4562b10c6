//===- Space.c - The search space of tile-tune ---------------------*- C
//-*-===//

#include "Space.h"

#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

bool readSpace(const char *path, Space *space) {
  char *text = tuneReadFile(path);
  if (!text) {
    fprintf(stderr, "tile-tune: error: cannot read the space '%s'\n", path);
    return false;
  }
  char *cursor = text, *line;
  int number = 0;
  bool ok = true;
  while (ok && (line = tuneNextLine(&cursor))) {
    ++number;
    char *f[64];
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char *eq = strchr(line, '=');
    if (eq)
      *eq = 0;
    char *name[2];
    int n = tuneSplit(line, name, 2);
    if (n == 0 && !eq)
      continue;
    n = eq ? tuneSplit(eq + 1, f, 64) : 0;
    ok = eq && n > 0 && tuneIsName(name[0], strlen(name[0]));
    for (int i = 0; ok && i < space->count; ++i)
      ok = strcmp(space->dims[i].name, name[0]) != 0;
    for (int i = 0; ok && i < n; ++i)
      ok = tuneIsListValue(f[i]);
    if (!ok) {
      fprintf(stderr,
              "tile-tune: error: %s:%d: expected 'NAME = VALUE ...' (a new "
              "name, values without ',', '=' or ';')\n",
              path, number);
      break;
    }
    int first = 0;
    space->dims =
        tuneRealloc(space->dims, (space->count + 1) * sizeof(Dimension));
    Dimension *d = &space->dims[space->count++];
    d->name = tuneStrdup(name[0]);
    d->count = n - first;
    d->values = tuneAlloc(d->count * sizeof(char *));
    for (int i = first; i < n; ++i)
      d->values[i - first] = tuneStrdup(f[i]);
  }
  free(text);
  if (ok && space->count == 0) {
    fprintf(stderr, "tile-tune: error: %s: no parameters\n", path);
    ok = false;
  }
  return ok;
}

void variantParams(const Space *space, long id, TuneParams *params) {
  long stride = 1;
  for (int i = space->count - 1; i >= 0; --i)
    stride *= space->dims[i].count;
  for (int i = 0; i < space->count; ++i) {
    stride /= space->dims[i].count;
    tuneParamsAdd(params, space->dims[i].name,
                  space->dims[i].values[(id / stride) % space->dims[i].count]);
  }
}

char *describe(const Space *space, const TuneParams *params) {
  char *text = tuneStrdup("");
  for (int i = 0; i < space->count; ++i) {
    char *grown =
        tuneFormat("%s%s%s=%s", text, i ? " " : "", space->dims[i].name,
                   tuneParamsGet(params, space->dims[i].name));
    free(text);
    text = grown;
  }
  return text;
}
