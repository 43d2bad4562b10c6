//===- DispatchText.c - The dispatcher of tuned variants as MLIR ---*- C
//-*-===//

#include "DispatchText.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/// Appends printf output to the string `*text`.
static void add(char **text, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(NULL, 0, format, args);
  va_end(args);
  size_t length = strlen(*text);
  *text = tuneRealloc(*text, length + (size_t)n + 1);
  va_start(args, format);
  vsnprintf(*text + length, (size_t)n + 1, format, args);
  va_end(args);
}

/// Where the signature first names `dim`: argument and dimension.
static bool locateDim(const char *signature, const char *dim, int *arg,
                      int *index) {
  char *copy = tuneStrdup(signature);
  *arg = 0;
  bool found = false;
  for (char *a = copy; a && !found; ++*arg) {
    char *next = strchr(a, ';');
    if (next)
      *next++ = 0;
    char *open = strchr(a, '['), *close = strrchr(a, ']');
    if (open && close) {
      *close = 0;
      *index = 0;
      for (char *d = open + 1; d && !found; ++*index) {
        char *comma = strchr(d, ',');
        if (comma)
          *comma++ = 0;
        found = !strcmp(d, dim);
        if (found)
          break;
        d = comma;
      }
    }
    if (found)
      break;
    a = next;
  }
  free(copy);
  return found;
}

/// The call of variant `v`, ending in scf.yield.
static void addCall(char **t, const Group *g, int v) {
  if (g->numResults)
    add(t, "    %%r%d:%d = ", v, g->numResults);
  else
    add(t, "    ");
  add(t, "func.call @%s__v%d(", g->function, v);
  for (int i = 0; i < g->numArgs; ++i)
    add(t, "%s%%arg%d", i ? ", " : "", i);
  add(t, ") : (");
  for (int i = 0; i < g->numArgs; ++i)
    add(t, "%s%s", i ? ", " : "", g->argTypes[i]);
  add(t, ") -> (");
  for (int i = 0; i < g->numResults; ++i)
    add(t, "%s%s", i ? ", " : "", g->results[i]);
  add(t, ")\n    scf.yield");
  for (int i = 0; i < g->numResults; ++i)
    add(t, "%s %%r%d#%d", i ? "," : "", v, i);
  for (int i = 0; i < g->numResults; ++i)
    add(t, "%s %s", i ? "," : " :", g->results[i]);
  add(t, "\n");
}

/// The dispatcher of `g` as MLIR text: the class index of each of the
/// call's sizes (tuneClassIndex, from the bit length of size - 1 and the
/// two bits below its leading one), the distance in quarter octaves to
/// each entry's class (the sum over the dimensions), the variant of
/// the first entry at the least distance (entries in cache order: a smaller
/// class wins a tie), then a switch over the variants.
char *dispatcherText(const Group *g) {
  char *t = tuneStrdup("");
  // Declarations of the variants, for the verifier (dropped when moved).
  for (size_t i = 0; i < g->count; ++i) {
    bool first = true;
    for (size_t j = 0; j < i && first; ++j)
      first = g->variant[j] != g->variant[i];
    if (!first)
      continue;
    add(&t, "func.func private @%s__v%d(", g->function, g->variant[i]);
    for (int a = 0; a < g->numArgs; ++a)
      add(&t, "%s%s", a ? ", " : "", g->argTypes[a]);
    add(&t, ") -> (");
    for (int r = 0; r < g->numResults; ++r)
      add(&t, "%s%s", r ? ", " : "", g->results[r]);
    add(&t, ")\n");
  }
  add(&t, "func.func @%s(", g->function);
  for (int i = 0; i < g->numArgs; ++i) {
    add(&t, "%s%%arg%d: %s%s%s", i ? ", " : "", i, g->argTypes[i],
        *g->argAttrs[i] ? " " : "", g->argAttrs[i]);
    if (*g->argNames[i])
      add(&t, " loc(\"%s\")", g->argNames[i]);
  }
  add(&t, ")");
  if (g->numResults) {
    add(&t, " -> (");
    for (int i = 0; i < g->numResults; ++i)
      add(&t, "%s%s", i ? ", " : "", g->results[i]);
    add(&t, ")");
  }
  add(&t, " {\n");
  // The variants of this function, in order; the last is the default case.
  int *variants = tuneAlloc(g->count * sizeof(int));
  size_t count = 0;
  for (size_t i = 0; i < g->count; ++i) {
    size_t k = 0;
    while (k < count && variants[k] != g->variant[i])
      ++k;
    if (k == count)
      variants[count++] = g->variant[i];
  }
  if (count == 1) {
    // One variant for every class: no choice to make.
    char *call = tuneStrdup("");
    addCall(&call, g, variants[0]);
    *strstr(call, "\n    scf.yield") = 0; // the call alone
    add(&t, "%s\n  return", call + 2);
    free(call);
    for (int i = 0; i < g->numResults; ++i)
      add(&t, "%s %%r%d#%d", i ? "," : "", variants[0], i);
    for (int i = 0; i < g->numResults; ++i)
      add(&t, "%s %s", i ? "," : " :", g->results[i]);
    add(&t, "\n}\n");
    free(variants);
    return t;
  }
  add(&t, "  %%zero = arith.constant 0 : i64\n"
          "  %%one = arith.constant 1 : i64\n");
  char *storage;
  char *dims[TUNE_MAX_DIMS];
  int rank = tuneSplitNames(g->dims, dims, TUNE_MAX_DIMS, &storage);
  for (int d = 0; d < rank; ++d) {
    int arg = 0, index = 0;
    locateDim(g->signature, dims[d], &arg, &index);
    const char *n = dims[d];
    add(&t,
        "  // %s: argument %d, dimension %d\n"
        "  %%%s_i = arith.constant %d : index\n"
        "  %%%s_size = memref.dim %%arg%d, %%%s_i : %s\n"
        "  %%%s_s = arith.index_cast %%%s_size : index to i64\n"
        "  %%%s_p = arith.maxsi %%%s_s, %%one : i64\n"
        "  %%%s_x0 = arith.subi %%%s_p, %%one : i64\n"
        "  %%%s_r0 = arith.constant 0 : i64\n",
        n, arg, index, n, index, n, arg, n, g->argTypes[arg], n, n, n, n, n, n,
        n);
    static const int shifts[] = {32, 16, 8, 4, 2, 1};
    for (int k = 0; k < 6; ++k)
      add(&t,
          "  %%%s_c%d = arith.constant %d : i64\n"
          "  %%%s_t%d = arith.shrui %%%s_x%d, %%%s_c%d : i64\n"
          "  %%%s_b%d = arith.cmpi ne, %%%s_t%d, %%zero : i64\n"
          "  %%%s_x%d = arith.select %%%s_b%d, %%%s_t%d, %%%s_x%d : i64\n"
          "  %%%s_a%d = arith.addi %%%s_r%d, %%%s_c%d : i64\n"
          "  %%%s_r%d = arith.select %%%s_b%d, %%%s_a%d, %%%s_r%d : i64\n",
          n, k, shifts[k], n, k, n, k, n, k, n, k, n, k, n, k + 1, n, k, n, k,
          n, k, n, k, n, k, n, k, n, k + 1, n, k, n, k, n, k);
    add(&t,
        "  %%%s_nz = arith.cmpi ne, %%%s_x6, %%zero : i64\n"
        "  %%%s_e = arith.extui %%%s_nz : i1 to i64\n"
        "  %%%s_log = arith.addi %%%s_r6, %%%s_e : i64\n",
        n, n, n, n, n, n, n);
    // The class index (tuneClassIndex): 4 log for sizes up to 4, else 4
    // (log - 1) + 1 + the two bits below the leading one of size - 1.
    add(&t,
        "  %%%s_three = arith.constant 3 : i64\n"
        "  %%%s_four = arith.constant 4 : i64\n"
        "  %%%s_big = arith.cmpi sge, %%%s_log, %%%s_three : i64\n"
        "  %%%s_sh0 = arith.subi %%%s_log, %%%s_three : i64\n"
        "  %%%s_sh = arith.maxsi %%%s_sh0, %%zero : i64\n"
        "  %%%s_top = arith.shrui %%%s_x0, %%%s_sh : i64\n"
        "  %%%s_q = arith.andi %%%s_top, %%%s_three : i64\n"
        "  %%%s_lo = arith.muli %%%s_log, %%%s_four : i64\n"
        "  %%%s_hi0 = arith.addi %%%s_lo, %%%s_q : i64\n"
        "  %%%s_hi = arith.subi %%%s_hi0, %%%s_three : i64\n"
        "  %%%s_cls = arith.select %%%s_big, %%%s_hi, %%%s_lo : i64\n",
        n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n,
        n, n, n, n, n, n, n);
  }
  for (size_t i = 0; i < g->count; ++i) {
    char *cls = tuneEntryClass(g->entries[i]);
    add(&t, "  // entry %zu: %s -> variant %d\n", i, cls, g->variant[i]);
    free(cls);
    for (int d = 0; d < rank; ++d)
      add(&t,
          "  %%k%zu_%d = arith.constant %d : i64\n"
          "  %%q%zu_%d = arith.subi %%%s_cls, %%k%zu_%d : i64\n"
          "  %%m%zu_%d = arith.subi %%zero, %%q%zu_%d : i64\n"
          "  %%a%zu_%d = arith.maxsi %%q%zu_%d, %%m%zu_%d : i64\n",
          i, d, tuneClassIndex(g->entries[i]->cls.sizes[d]), i, d, dims[d], i,
          d, i, d, i, d, i, d, i, d, i, d);
    add(&t, "  %%dist%zu_0 = arith.addi %%zero, %%a%zu_0 : i64\n", i, i);
    for (int d = 1; d < rank; ++d)
      add(&t, "  %%dist%zu_%d = arith.addi %%dist%zu_%d, %%a%zu_%d : i64\n", i,
          d, i, d - 1, i, d);
    char *last = tuneFormat("%%dist%zu_%d", i, rank - 1);
    add(&t, "  %%v%zu = arith.constant %d : i64\n", i, g->variant[i]);
    if (i == 0) {
      add(&t, "  %%best0 = arith.addi %s, %%zero : i64\n", last);
      add(&t, "  %%var0 = arith.addi %%v0, %%zero : i64\n");
    } else {
      add(&t,
          "  %%lt%zu = arith.cmpi slt, %s, %%best%zu : i64\n"
          "  %%best%zu = arith.select %%lt%zu, %s, %%best%zu : i64\n"
          "  %%var%zu = arith.select %%lt%zu, %%v%zu, %%var%zu : i64\n",
          i, last, i - 1, i, i, last, i - 1, i, i, i, i - 1);
    }
    free(last);
  }
  free(storage);
  add(&t, "  %%which = arith.index_cast %%var%zu : i64 to index\n",
      g->count - 1);
  if (g->numResults)
    add(&t, "  %%res:%d = ", g->numResults);
  else
    add(&t, "  ");
  add(&t, "scf.index_switch %%which");
  for (int i = 0; i < g->numResults; ++i)
    add(&t, "%s %s", i ? "," : " ->", g->results[i]);
  add(&t, "\n");
  for (size_t k = 0; k + 1 < count; ++k) {
    add(&t, "  case %d {\n", variants[k]);
    addCall(&t, g, variants[k]);
    add(&t, "  }\n");
  }
  add(&t, "  default {\n");
  addCall(&t, g, variants[count - 1]);
  add(&t, "  }\n  return");
  for (int i = 0; i < g->numResults; ++i)
    add(&t, "%s %%res#%d", i ? "," : "", i);
  for (int i = 0; i < g->numResults; ++i)
    add(&t, "%s %s", i ? "," : " :", g->results[i]);
  add(&t, "\n}\n");
  free(variants);
  return t;
}
