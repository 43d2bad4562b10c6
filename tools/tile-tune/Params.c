//===- Params.c - Utilities and `${NAME}` parameters ---------------*- C
//-*-===//

#include "Tune.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Utilities
//===----------------------------------------------------------------------===//

void *tuneAlloc(size_t size) {
  void *ptr = calloc(1, size ? size : 1);
  if (!ptr) {
    fputs("error: out of memory\n", stderr);
    exit(1);
  }
  return ptr;
}

void *tuneRealloc(void *ptr, size_t size) {
  ptr = realloc(ptr, size ? size : 1);
  if (!ptr) {
    fputs("error: out of memory\n", stderr);
    exit(1);
  }
  return ptr;
}

char *tuneStrndup(const char *text, size_t n) {
  char *copy = tuneAlloc(n + 1);
  memcpy(copy, text, n);
  copy[n] = 0;
  return copy;
}

char *tuneStrdup(const char *text) { return tuneStrndup(text, strlen(text)); }

char *tuneFormat(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(NULL, 0, format, args);
  va_end(args);
  char *text = tuneAlloc((size_t)n + 1);
  va_start(args, format);
  vsnprintf(text, (size_t)n + 1, format, args);
  va_end(args);
  return text;
}

char *tuneReadFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  size_t size = 0, capacity = 4096;
  char *text = tuneAlloc(capacity);
  size_t n;
  while ((n = fread(text + size, 1, capacity - size - 1, file)) > 0) {
    size += n;
    if (capacity - size < 2) {
      capacity *= 2;
      text = tuneRealloc(text, capacity);
    }
  }
  bool failed = ferror(file);
  fclose(file);
  if (failed) {
    free(text);
    return NULL;
  }
  text[size] = 0;
  return text;
}

int tuneSplit(char *line, char **fields, int max) {
  int count = 0;
  char *p = line;
  while (count < max) {
    while (*p == ' ' || *p == '\t' || *p == '\r')
      ++p;
    if (!*p)
      break;
    if (count == 0 && *p == '#')
      return 0;
    fields[count++] = p;
    if (count == max) {
      // The rest of the line, trailing blanks removed.
      char *end = p + strlen(p);
      while (end > p && isspace((unsigned char)end[-1]))
        *--end = 0;
      break;
    }
    while (*p && *p != ' ' && *p != '\t' && *p != '\r')
      ++p;
    if (*p)
      *p++ = 0;
  }
  return count;
}

char *tuneNextLine(char **cursor) {
  char *line = *cursor;
  if (!line || !*line)
    return NULL;
  char *newline = strchr(line, '\n');
  if (newline) {
    *newline = 0;
    *cursor = newline + 1;
  } else {
    *cursor = line + strlen(line);
  }
  return line;
}

//===----------------------------------------------------------------------===//
// Parameter lists
//===----------------------------------------------------------------------===//

bool tuneIsName(const char *name, size_t n) {
  if (n == 0 || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
    return false;
  for (size_t i = 1; i < n; ++i)
    if (!(isalnum((unsigned char)name[i]) || name[i] == '_'))
      return false;
  return true;
}

bool tuneIsListValue(const char *value) {
  if (!*value)
    return false;
  for (; *value; ++value)
    if (isspace((unsigned char)*value) || *value == ',' || *value == '=' ||
        *value == ';')
      return false;
  return true;
}

void tuneParamsAdd(TuneParams *params, const char *name, const char *value) {
  params->items =
      tuneRealloc(params->items, (params->count + 1) * sizeof(TuneParam));
  params->items[params->count].name = tuneStrdup(name);
  params->items[params->count].value = tuneStrdup(value);
  ++params->count;
}

const char *tuneParamsGet(const TuneParams *params, const char *name) {
  for (size_t i = 0; i < params->count; ++i)
    if (!strcmp(params->items[i].name, name))
      return params->items[i].value;
  return NULL;
}

void tuneParamsFree(TuneParams *params) {
  for (size_t i = 0; i < params->count; ++i) {
    free(params->items[i].name);
    free(params->items[i].value);
  }
  free(params->items);
  params->items = NULL;
  params->count = 0;
}

void tuneParamsCopy(TuneParams *to, const TuneParams *from) {
  for (size_t i = 0; i < from->count; ++i)
    tuneParamsAdd(to, from->items[i].name, from->items[i].value);
}

static char *formatParams(const TuneParam *items, size_t count) {
  size_t length = 1;
  for (size_t i = 0; i < count; ++i)
    length += strlen(items[i].name) + strlen(items[i].value) + 2;
  char *text = tuneAlloc(length);
  char *p = text;
  for (size_t i = 0; i < count; ++i)
    p += sprintf(p, "%s%s=%s", i ? "," : "", items[i].name, items[i].value);
  return text;
}

char *tuneParamsFormat(const TuneParams *params) {
  return formatParams(params->items, params->count);
}

static int compareParams(const void *a, const void *b) {
  return strcmp(((const TuneParam *)a)->name, ((const TuneParam *)b)->name);
}

char *tuneParamsCanonical(const TuneParams *params) {
  TuneParam *sorted = tuneAlloc(params->count * sizeof(TuneParam));
  memcpy(sorted, params->items, params->count * sizeof(TuneParam));
  qsort(sorted, params->count, sizeof(TuneParam), compareParams);
  char *text = formatParams(sorted, params->count);
  free(sorted);
  return text;
}

bool tuneParamsParse(const char *text, TuneParams *params) {
  const char *p = text;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    const char *eq = memchr(p, '=', n);
    if (!eq || !tuneIsName(p, (size_t)(eq - p)) || eq + 1 == p + n)
      return false;
    char *name = tuneStrndup(p, (size_t)(eq - p));
    char *value = tuneStrndup(eq + 1, n - (size_t)(eq - p) - 1);
    bool fresh = !tuneParamsGet(params, name);
    if (fresh)
      tuneParamsAdd(params, name, value);
    free(name);
    free(value);
    if (!fresh)
      return false;
    p += n;
    if (*p == ',' && !*++p)
      return false;
  }
  return true;
}

bool tuneParseDefine(const char *text, TuneParams *params, char *error,
                     size_t size) {
  const char *eq = strchr(text, '=');
  if (!eq || !tuneIsName(text, (size_t)(eq - text))) {
    snprintf(error, size,
             "bad -D '%s': expected NAME=VALUE, NAME of [A-Za-z_][A-Za-z0-9_]*",
             text);
    return false;
  }
  char *name = tuneStrndup(text, (size_t)(eq - text));
  bool ok = !tuneParamsGet(params, name);
  if (ok)
    tuneParamsAdd(params, name, eq + 1);
  else
    snprintf(error, size, "-D %s given twice", name);
  free(name);
  return ok;
}

//===----------------------------------------------------------------------===//
// Substitution
//===----------------------------------------------------------------------===//

/// A placeholder: `${NAME}` or `${NAME:-DEFAULT}` at `offset`, `length`
/// bytes long; `name` is NULL if the text there is malformed.
typedef struct {
  size_t offset, length;
  const char *name;
  size_t nameLength;
  const char *fallback; /// DEFAULT, or NULL
  size_t fallbackLength;
} Placeholder;

/// Calls `visit` for each `${...}` of `source`.
typedef void (*VisitFn)(void *state, const Placeholder *placeholder);

static void visitPlaceholders(const char *source, VisitFn visit, void *state) {
  bool inString = false;
  for (const char *p = source; *p;) {
    // Comments (`//` to the end of the line) keep their text; string
    // literals do not.
    if (!inString && p[0] == '/' && p[1] == '/') {
      p += strcspn(p, "\n");
      continue;
    }
    if (*p == '"') {
      inString = !inString;
    } else if (inString && *p == '\\' && p[1]) {
      p += 2;
      continue;
    } else if (*p == '\n') {
      inString = false;
    }
    if (p[0] != '$' || p[1] != '{') {
      ++p;
      continue;
    }
    const char *start = p + 2, *end = start;
    while (isalnum((unsigned char)*end) || *end == '_')
      ++end;
    Placeholder placeholder = {(size_t)(p - source), 0, NULL, 0, NULL, 0};
    const char *close = end;
    if (end[0] == ':' && end[1] == '-') {
      // A default: any text up to the closing brace on the same line.
      const char *value = end + 2;
      close = value + strcspn(value, "}\n");
      if (*close == '}' && close > value) {
        placeholder.fallback = value;
        placeholder.fallbackLength = (size_t)(close - value);
      } else {
        close = end; // malformed
      }
    }
    if (*close == '}' && tuneIsName(start, (size_t)(end - start))) {
      placeholder.name = start;
      placeholder.nameLength = (size_t)(end - start);
      placeholder.length = (size_t)(close + 1 - p);
      visit(state, &placeholder);
      p = close + 1;
    } else {
      placeholder.length = (size_t)(end - p);
      visit(state, &placeholder);
      p = start;
    }
  }
}

typedef struct {
  const char *source, *path;
  const TuneParams *params;
  bool *used;
  FILE *diag;
  bool failed;
  TuneParams missing; /// reported already
  char *out;
  size_t outLength, outCapacity, copied;
} SubstState;

static void append(SubstState *s, const char *text, size_t n) {
  if (s->outLength + n + 1 > s->outCapacity) {
    s->outCapacity = (s->outLength + n + 1) * 2;
    s->out = tuneRealloc(s->out, s->outCapacity);
  }
  memcpy(s->out + s->outLength, text, n);
  s->outLength += n;
  s->out[s->outLength] = 0;
}

static void lineAndColumn(const char *source, size_t offset, int *line,
                          int *column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (source[i] == '\n') {
      ++*line;
      *column = 1;
    } else {
      ++*column;
    }
  }
}

static void substituteOne(void *state, const Placeholder *placeholder) {
  SubstState *s = state;
  int line, column;
  size_t offset = placeholder->offset;
  if (!placeholder->name) {
    size_t length = placeholder->length;
    lineAndColumn(s->source, offset, &line, &column);
    fprintf(s->diag,
            "%s:%d:%d: error: malformed parameter '%.*s': expected ${NAME} "
            "or ${NAME:-DEFAULT}, NAME of [A-Za-z_][A-Za-z0-9_]*\n",
            s->path, line, column, (int)(length < 40 ? length : 40),
            s->source + offset);
    s->failed = true;
    return;
  }
  char *key = tuneStrndup(placeholder->name, placeholder->nameLength);
  const char *value = NULL;
  size_t valueLength = 0;
  for (size_t i = 0; i < s->params->count; ++i) {
    if (!strcmp(s->params->items[i].name, key)) {
      value = s->params->items[i].value;
      valueLength = strlen(value);
      if (s->used)
        s->used[i] = true;
    }
  }
  if (!value && placeholder->fallback) {
    value = placeholder->fallback;
    valueLength = placeholder->fallbackLength;
  }
  if (!value) {
    if (!tuneParamsGet(&s->missing, key)) {
      lineAndColumn(s->source, offset, &line, &column);
      fprintf(
          s->diag,
          "%s:%d:%d: error: no value for parameter '%s' (use -D %s=VALUE)\n",
          s->path, line, column, key, key);
      tuneParamsAdd(&s->missing, key, "");
    }
    s->failed = true;
  } else {
    append(s, s->source + s->copied, offset - s->copied);
    append(s, value, valueLength);
    s->copied = offset + placeholder->length;
  }
  free(key);
}

char *tuneSubstitute(const char *source, const char *path,
                     const TuneParams *params, bool *used, FILE *diag) {
  SubstState s = {source,    path, params, used, diag, false,
                  {NULL, 0}, NULL, 0,      0,    0};
  if (used)
    memset(used, 0, params->count * sizeof(bool));
  append(&s, "", 0);
  visitPlaceholders(source, substituteOne, &s);
  tuneParamsFree(&s.missing);
  if (s.failed) {
    free(s.out);
    return NULL;
  }
  append(&s, source + s.copied, strlen(source + s.copied));
  return s.out;
}

static void collectName(void *state, const Placeholder *placeholder) {
  if (!placeholder->name)
    return;
  char *key = tuneStrndup(placeholder->name, placeholder->nameLength);
  if (!tuneParamsGet(state, key))
    tuneParamsAdd(state, key, "");
  free(key);
}

void tunePlaceholders(const char *source, TuneParams *names) {
  visitPlaceholders(source, collectName, names);
}
