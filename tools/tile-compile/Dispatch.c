//===- Dispatch.c - The library of tuned variants -----------------*- C -*-===//
//
// See Dispatch.h. The variants are parsed from SOURCE with the winners'
// parameters, renamed through the symbol table C API and moved into the
// first variant's module; the dispatcher is written as MLIR text and parsed.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "DispatchText.h"
#include "FuncInfo.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tile-c/Parse.h"

#include <ctype.h>
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
  char *text =
      tuneSubstitute(s->source, s->path, &values, used, diag ? diag : stderr);
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
  g->argNames = tuneAlloc((size_t)g->numArgs * sizeof(char *));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  g->results = tuneAlloc((size_t)g->numResults * sizeof(char *));
  for (int i = 0; i < g->numArgs; ++i) {
    g->argTypes[i] = tuneTypeString(mlirFunctionTypeGetInput(type, i));
    bool has = !mlirAttributeIsNull(argAttrs) &&
               i < mlirArrayAttrGetNumElements(argAttrs) &&
               mlirDictionaryAttrGetNumElements(
                   mlirArrayAttrGetElement(argAttrs, i)) > 0;
    g->argAttrs[i] = has ? tuneAttrString(mlirArrayAttrGetElement(argAttrs, i))
                         : tuneStrdup("");
    // The source name of the argument (a name location, tile-c/Parse.h),
    // kept by the dispatcher for the header and the function table.
    g->argNames[i] = tuneStrdup("");
    if (mlirBlockIsNull(entry) || i >= mlirBlockGetNumArguments(entry))
      continue;
    MlirLocation loc = mlirValueGetLocation(mlirBlockGetArgument(entry, i));
    if (!mlirLocationIsAName(loc))
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirLocationNameGetName(loc));
    bool plain = name.length > 0;
    for (size_t c = 0; c < name.length && plain; ++c)
      plain = isalnum((unsigned char)name.data[c]) || name.data[c] == '_';
    if (plain) {
      free(g->argNames[i]);
      g->argNames[i] = tuneAlloc(name.length + 1);
      memcpy(g->argNames[i], name.data, name.length);
      g->argNames[i][name.length] = 0;
    }
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
      s->groups = tuneRealloc(s->groups, (s->groupCount + 1) * sizeof(Group));
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
        s->variants = tuneRealloc(s->variants, (v + 1) * sizeof(char *));
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
      duplicate = !mlirOperationIsNull(
          mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(name)));
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
          cachePath, chip, path, defines->count ? " with these -D values" : "");
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
      free(g->argNames[i]);
    }
    for (int i = 0; i < g->numResults; ++i)
      free(g->results[i]);
    free(g->argTypes);
    free(g->argAttrs);
    free(g->argNames);
    free(g->results);
  }
  free(s.groups);
  for (size_t v = 0; v < s.variantCount; ++v)
    free(s.variants[v]);
  free(s.variants);
  tuneCacheFree(&cache);
  return result;
}
