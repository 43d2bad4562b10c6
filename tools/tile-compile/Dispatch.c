//===- Dispatch.c - The library of tuned variants -----------------*- C -*-===//
//
// See Dispatch.h. The variants are parsed from SOURCE with the winners'
// parameters, renamed through the symbol table C API and moved into the
// first variant's module; the dispatcher is written as MLIR text and parsed.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "FuncInfo.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tile-c/Parse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("tile-compile: error: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

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

/// The tuned entries of one function.
typedef struct {
  char *function, *signature, *dims;
  TuneEntry **entries;
  size_t count;
  int *variant; /// per entry: its variant
  /// The function as written: per argument its type and attributes, and
  /// the result types.
  char **argTypes, **argAttrs, **results;
  int numArgs, numResults;
} Group;

typedef struct {
  MlirContext ctx;
  const char *source, *path;
  const TuneParams *defines;
  bool *used;
  Group *groups;
  size_t groupCount;
  char **variants; /// canonical parameters of each variant
  size_t variantCount;
} State;

/// The parameters of `entry` with the -D values it lacks; NULL (no
/// allocation) if a -D gives one of them another value.
static char *mergedParams(const State *s, const TuneEntry *entry) {
  TuneParams params = {NULL, 0};
  tuneParamsParse(entry->params, &params);
  for (size_t i = 0; i < s->defines->count; ++i) {
    const TuneParam *d = &s->defines->items[i];
    const char *value = tuneParamsGet(&params, d->name);
    if (value && strcmp(value, d->value)) {
      tuneParamsFree(&params);
      return NULL;
    }
    if (!value)
      tuneParamsAdd(&params, d->name, d->value);
  }
  char *text = tuneParamsCanonical(&params);
  tuneParamsFree(&params);
  return text;
}

/// SOURCE with `params` (canonical text) substituted, parsed. With `why`,
/// a placeholder without a value is not reported but described there.
static MlirModule parseVariant(State *s, const char *params, char **why) {
  TuneParams values = {NULL, 0};
  tuneParamsParse(params, &values);
  bool *used = tuneAlloc(values.count * sizeof(bool));
  char *diagText = NULL;
  size_t diagSize = 0;
  FILE *diag = why ? open_memstream(&diagText, &diagSize) : stderr;
  char *text = tuneSubstitute(s->source, s->path, &values, used,
                              diag ? diag : stderr);
  if (why && diag) {
    fclose(diag);
    diagText[strcspn(diagText, "\n")] = 0;
    *why = diagText;
  }
  for (size_t i = 0; i < s->defines->count && s->used; ++i)
    for (size_t j = 0; j < values.count; ++j)
      if (used[j] && !strcmp(values.items[j].name, s->defines->items[i].name))
        s->used[i] = true;
  free(used);
  tuneParamsFree(&values);
  MlirModule module = {NULL};
  if (!text)
    return module;
  module = tileModuleCreateParse(s->ctx, mlirStringRefCreateFromCString(text),
                                 mlirStringRefCreateFromCString(s->path));
  free(text);
  return module;
}

/// Records the function's types and attributes in `g`.
static void recordFunction(Group *g, MlirOperation func) {
  MlirType type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type")));
  MlirAttribute argAttrs = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("arg_attrs"));
  g->numArgs = (int)mlirFunctionTypeGetNumInputs(type);
  g->numResults = (int)mlirFunctionTypeGetNumResults(type);
  g->argTypes = tuneAlloc((size_t)g->numArgs * sizeof(char *));
  g->argAttrs = tuneAlloc((size_t)g->numArgs * sizeof(char *));
  g->results = tuneAlloc((size_t)g->numResults * sizeof(char *));
  for (int i = 0; i < g->numArgs; ++i) {
    g->argTypes[i] = tuneTypeString(mlirFunctionTypeGetInput(type, i));
    bool has = !mlirAttributeIsNull(argAttrs) &&
               i < mlirArrayAttrGetNumElements(argAttrs) &&
               mlirDictionaryAttrGetNumElements(
                   mlirArrayAttrGetElement(argAttrs, i)) > 0;
    g->argAttrs[i] = has ? tuneAttrString(mlirArrayAttrGetElement(argAttrs, i))
                         : tuneStrdup("");
  }
  for (int i = 0; i < g->numResults; ++i)
    g->results[i] = tuneTypeString(mlirFunctionTypeGetResult(type, i));
}

/// Groups the cache's entries for `chip` by function; keeps the functions
/// SOURCE defines with the cache's signature.
static bool groupEntries(State *s, TuneCache *cache, const char *chip) {
  qsort(cache->items, cache->count, sizeof(TuneEntry), tuneEntryCompare);
  for (size_t i = 0; i < cache->count; ++i) {
    TuneEntry *e = &cache->items[i];
    char *params = strcmp(e->chip, chip) ? NULL : mergedParams(s, e);
    if (!params)
      continue;
    free(params);
    Group *g = NULL;
    for (size_t j = 0; j < s->groupCount && !g; ++j)
      if (!strcmp(s->groups[j].function, e->function))
        g = &s->groups[j];
    if (g && (strcmp(g->signature, e->signature) || strcmp(g->dims, e->dims))) {
      error("the cache has entries for '%s' with different signatures (%s "
            "and %s, or dimensions %s and %s): select them with -D",
            e->function, g->signature, e->signature, g->dims, e->dims);
      return false;
    }
    if (!g) {
      s->groups =
          tuneRealloc(s->groups, (s->groupCount + 1) * sizeof(Group));
      g = &s->groups[s->groupCount++];
      memset(g, 0, sizeof(*g));
      g->function = e->function;
      g->signature = e->signature;
      g->dims = e->dims;
    }
    g->entries = tuneRealloc(g->entries, (g->count + 1) * sizeof(TuneEntry *));
    g->entries[g->count++] = e;
  }
  // Keep the functions SOURCE defines (a cache may serve several sources).
  size_t kept = 0;
  for (size_t j = 0; j < s->groupCount; ++j) {
    Group *g = &s->groups[j];
    char *params = mergedParams(s, g->entries[0]), *why = NULL;
    MlirModule module = parseVariant(s, params, &why);
    free(params);
    if (mlirModuleIsNull(module) && why && *why) {
      // Not this source's parameters.
      fprintf(stderr,
              "tile-compile: warning: the cache's entries for '%s' do not "
              "fit '%s': %s\n",
              g->function, s->path, why);
      free(why);
      free(g->entries);
      continue;
    }
    free(why);
    if (mlirModuleIsNull(module)) {
      error("cannot parse '%s' with the parameters of the cache's entry for "
            "'%s' (%s)",
            s->path, g->function, g->entries[0]->params);
      return false;
    }
    MlirOperation func = tuneFindFunc(module, g->function);
    char *dims = NULL, message[512] = "";
    char *signature =
        mlirOperationIsNull(func) || !tuneFuncHasBody(func)
            ? NULL
            : tuneFuncSignature(func, &dims, message, sizeof(message));
    if (signature && !strcmp(signature, g->signature)) {
      recordFunction(g, func);
      s->groups[kept++] = *g;
    } else {
      fprintf(stderr,
              "tile-compile: warning: the cache's entries for '%s' (%s) do "
              "not match '%s'%s%s\n",
              g->function, g->signature, s->path, signature ? ": it has " : "",
              signature ? signature : "");
      free(g->entries);
    }
    free(signature);
    free(dims);
    mlirModuleDestroy(module);
  }
  s->groupCount = kept;
  return true;
}

/// Numbers the distinct parameters of the entries.
static void numberVariants(State *s) {
  for (size_t j = 0; j < s->groupCount; ++j) {
    Group *g = &s->groups[j];
    g->variant = tuneAlloc(g->count * sizeof(int));
    for (size_t i = 0; i < g->count; ++i) {
      char *params = mergedParams(s, g->entries[i]);
      size_t v = 0;
      while (v < s->variantCount && strcmp(s->variants[v], params))
        ++v;
      if (v == s->variantCount) {
        s->variants =
            tuneRealloc(s->variants, (v + 1) * sizeof(char *));
        s->variants[s->variantCount++] = params;
      } else {
        free(params);
      }
      g->variant[i] = (int)v;
    }
  }
}

//===----------------------------------------------------------------------===//
// Renaming and merging
//===----------------------------------------------------------------------===//

typedef struct {
  MlirOperation root;
  MlirOperation *ops;
  size_t count;
} Collected;

static MlirWalkResult collectSymbols(MlirOperation op, void *userData) {
  Collected *c = userData;
  if (mlirOperationEqual(op, c->root))
    return MlirWalkResultAdvance;
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(name) || (tuneIsFunc(op) && !tuneFuncHasBody(op)))
    return MlirWalkResultAdvance; // declarations keep their names
  c->ops = tuneRealloc(c->ops, (c->count + 1) * sizeof(MlirOperation));
  c->ops[c->count++] = op;
  return MlirWalkResultAdvance;
}

/// Whether variant `v` is the one of an entry of `g`.
static bool groupUses(const Group *g, int v) {
  for (size_t i = 0; i < g->count; ++i)
    if (g->variant[i] == v)
      return true;
  return false;
}

static const Group *findGroup(const State *s, const char *function) {
  for (size_t j = 0; j < s->groupCount; ++j)
    if (!strcmp(s->groups[j].function, function))
      return &s->groups[j];
  return NULL;
}

/// Renames the symbols of variant `v` with the suffix "__v<v>": tuned
/// functions it is a winner of (made private), their kernels and helpers.
/// Tuned functions it does not win are erased, and so are the other public
/// functions except in variant 0, where they keep their names.
static bool renameVariant(State *s, MlirModule module, int v) {
  MlirOperation root = mlirModuleGetOperation(module);
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body), next;
       !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!tuneIsFunc(op) || !tuneFuncHasBody(op) || !tuneFuncIsPublic(op))
      continue;
    char *name = tuneSymName(op);
    const Group *g = findGroup(s, name);
    if (g ? !groupUses(g, v) : v != 0) {
      mlirOperationRemoveFromParent(op);
      mlirOperationDestroy(op);
    } else if (g) {
      mlirOperationSetAttributeByName(
          op, mlirStringRefCreateFromCString("sym_visibility"),
          mlirStringAttrGet(mlirOperationGetContext(op),
                            mlirStringRefCreateFromCString("private")));
    }
    free(name);
  }
  Collected c = {root, NULL, 0};
  mlirOperationWalk(root, collectSymbols, &c, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; i < c.count && ok; ++i) {
    char *name = tuneSymName(c.ops[i]);
    bool keep = tuneIsFunc(c.ops[i]) && tuneFuncIsPublic(c.ops[i]);
    char *renamed = tuneFormat("%s__v%d", name, v);
    if (!keep) {
      ok = mlirLogicalResultIsSuccess(mlirSymbolTableReplaceAllSymbolUses(
          mlirStringRefCreateFromCString(name),
          mlirStringRefCreateFromCString(renamed), root));
      mlirOperationSetAttributeByName(
          c.ops[i], mlirStringRefCreateFromCString("sym_name"),
          mlirStringAttrGet(mlirOperationGetContext(root),
                            mlirStringRefCreateFromCString(renamed)));
    }
    if (!ok)
      error("cannot rename '%s' in variant %d", name, v);
    free(name);
    free(renamed);
  }
  free(c.ops);
  return ok;
}

/// Moves the operations of `from` into `into`, except declarations of
/// symbols `into` has.
static void moveInto(MlirModule into, MlirModule from) {
  MlirBlock target = mlirModuleGetBody(into);
  MlirOperation intoOp = mlirModuleGetOperation(into);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(from)),
                     next;
       !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    char *name = tuneSymName(op);
    bool duplicate = false;
    if (*name) {
      MlirSymbolTable table = mlirSymbolTableCreate(intoOp);
      duplicate = !mlirOperationIsNull(mlirSymbolTableLookup(
          table, mlirStringRefCreateFromCString(name)));
      mlirSymbolTableDestroy(table);
    }
    free(name);
    if (duplicate)
      continue;
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(target, op);
  }
}

//===----------------------------------------------------------------------===//
// The dispatcher
//===----------------------------------------------------------------------===//

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

/// The dispatcher of `g` as MLIR text: the call's sizes rounded up to
/// powers of two (their log2: the bit length of size - 1), the distance in
/// log2 to each entry's class (the sum over the dimensions), the variant of
/// the first entry at the least distance (entries in cache order: a smaller
/// class wins a tie), then a switch over the variants.
static char *dispatcherText(const Group *g) {
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
  for (int i = 0; i < g->numArgs; ++i)
    add(&t, "%s%%arg%d: %s%s%s", i ? ", " : "", i, g->argTypes[i],
        *g->argAttrs[i] ? " " : "", g->argAttrs[i]);
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
        n, arg, index, n, index, n, arg, n, g->argTypes[arg], n, n, n, n, n,
        n, n);
    static const int shifts[] = {32, 16, 8, 4, 2, 1};
    for (int k = 0; k < 6; ++k)
      add(&t,
          "  %%%s_c%d = arith.constant %d : i64\n"
          "  %%%s_t%d = arith.shrui %%%s_x%d, %%%s_c%d : i64\n"
          "  %%%s_b%d = arith.cmpi ne, %%%s_t%d, %%zero : i64\n"
          "  %%%s_x%d = arith.select %%%s_b%d, %%%s_t%d, %%%s_x%d : i64\n"
          "  %%%s_a%d = arith.addi %%%s_r%d, %%%s_c%d : i64\n"
          "  %%%s_r%d = arith.select %%%s_b%d, %%%s_a%d, %%%s_r%d : i64\n",
          n, k, shifts[k], n, k, n, k, n, k, n, k, n, k, n, k + 1, n, k, n,
          k, n, k, n, k, n, k, n, k, n, k + 1, n, k, n, k, n, k);
    add(&t,
        "  %%%s_nz = arith.cmpi ne, %%%s_x6, %%zero : i64\n"
        "  %%%s_e = arith.extui %%%s_nz : i1 to i64\n"
        "  %%%s_log = arith.addi %%%s_r6, %%%s_e : i64\n",
        n, n, n, n, n, n, n);
  }
  for (size_t i = 0; i < g->count; ++i) {
    char *cls = tuneEntryClass(g->entries[i]);
    add(&t, "  // entry %zu: %s -> variant %d\n", i, cls, g->variant[i]);
    free(cls);
    for (int d = 0; d < rank; ++d)
      add(&t,
          "  %%k%zu_%d = arith.constant %d : i64\n"
          "  %%q%zu_%d = arith.subi %%%s_log, %%k%zu_%d : i64\n"
          "  %%m%zu_%d = arith.subi %%zero, %%q%zu_%d : i64\n"
          "  %%a%zu_%d = arith.maxsi %%q%zu_%d, %%m%zu_%d : i64\n",
          i, d, tuneLog2(g->entries[i]->cls.sizes[d]), i, d, dims[d], i, d, i,
          d, i, d, i, d, i, d, i, d);
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

MlirModule tileBuildTunedModule(MlirContext ctx, const char *source,
                                const char *path, const TuneParams *defines,
                                bool *used, const char *cachePath,
                                const char *chip) {
  MlirModule result = {NULL};
  TuneCache cache = {NULL, 0};
  if (!tuneCacheRead(cachePath, &cache, false, "tile-compile"))
    return result;
  State s = {ctx, source, path, defines, used, NULL, 0, NULL, 0};
  if (used)
    memset(used, 0, defines->count * sizeof(bool));
  if (!groupEntries(&s, &cache, chip))
    goto done;
  if (s.groupCount == 0) {
    error("the cache '%s' has no entries for %s and the functions of '%s'%s",
          cachePath, chip, path,
          defines->count ? " with these -D values" : "");
    goto done;
  }
  numberVariants(&s);
  for (size_t v = 0; v < s.variantCount; ++v) {
    MlirModule module = parseVariant(&s, s.variants[v], NULL);
    if (mlirModuleIsNull(module)) {
      error("cannot parse '%s' with %s", path, s.variants[v]);
      goto done;
    }
    if (!renameVariant(&s, module, (int)v)) {
      mlirModuleDestroy(module);
      goto done;
    }
    if (v == 0) {
      result = module;
    } else {
      moveInto(result, module);
      mlirModuleDestroy(module);
    }
  }
  for (size_t j = 0; j < s.groupCount; ++j) {
    char *text = dispatcherText(&s.groups[j]);
    MlirModule dispatcher =
        tileModuleCreateParse(ctx, mlirStringRefCreateFromCString(text),
                              mlirStringRefCreateFromCString("dispatcher"));
    if (mlirModuleIsNull(dispatcher)) {
      error("the dispatcher of '%s' does not parse:\n%s", s.groups[j].function,
            text);
      free(text);
      mlirModuleDestroy(result);
      result.ptr = NULL;
      goto done;
    }
    free(text);
    moveInto(result, dispatcher);
    mlirModuleDestroy(dispatcher);
  }
  for (size_t j = 0; j < s.groupCount; ++j) {
    fprintf(stderr, "tile-compile: '%s' dispatches %zu shape classes to",
            s.groups[j].function, s.groups[j].count);
    for (size_t i = 0; i < s.groups[j].count; ++i)
      fprintf(stderr, "%s v%d", i ? "," : "", s.groups[j].variant[i]);
    fputc('\n', stderr);
  }
done:
  for (size_t j = 0; j < s.groupCount; ++j) {
    Group *g = &s.groups[j];
    free(g->entries);
    free(g->variant);
    for (int i = 0; i < g->numArgs; ++i) {
      free(g->argTypes[i]);
      free(g->argAttrs[i]);
    }
    for (int i = 0; i < g->numResults; ++i)
      free(g->results[i]);
    free(g->argTypes);
    free(g->argAttrs);
    free(g->results);
  }
  free(s.groups);
  for (size_t v = 0; v < s.variantCount; ++v)
    free(s.variants[v]);
  free(s.variants);
  tuneCacheFree(&cache);
  return result;
}
