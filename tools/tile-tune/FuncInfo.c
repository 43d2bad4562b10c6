//===- FuncInfo.c - What the tuner reads from a function -----------*- C
//-*-===//

#include "FuncInfo.h"
#include "Tune.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  char *text;
  size_t length;
} Buffer;

static void appendToBuffer(MlirStringRef text, void *userData) {
  Buffer *buffer = userData;
  buffer->text = tuneRealloc(buffer->text, buffer->length + text.length + 1);
  memcpy(buffer->text + buffer->length, text.data, text.length);
  buffer->length += text.length;
  buffer->text[buffer->length] = 0;
}

char *tuneTypeString(MlirType type) {
  Buffer buffer = {tuneStrdup(""), 0};
  mlirTypePrint(type, appendToBuffer, &buffer);
  return buffer.text;
}

char *tuneAttrString(MlirAttribute attr) {
  Buffer buffer = {tuneStrdup(""), 0};
  mlirAttributePrint(attr, appendToBuffer, &buffer);
  return buffer.text;
}

static MlirAttribute getAttr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

char *tuneSymName(MlirOperation op) {
  MlirAttribute name = getAttr(op, "sym_name");
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
    return tuneStrdup("");
  MlirStringRef value = mlirStringAttrGetValue(name);
  return tuneStrndup(value.data, value.length);
}

bool tuneIsFunc(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length == 9 && !strncmp(name.data, "func.func", 9);
}

bool tuneFuncHasBody(MlirOperation func) {
  return !mlirBlockIsNull(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
}

bool tuneFuncIsPublic(MlirOperation func) {
  MlirAttribute visibility = getAttr(func, "sym_visibility");
  if (mlirAttributeIsNull(visibility))
    return true;
  MlirStringRef value = mlirStringAttrGetValue(visibility);
  return value.length == 6 && !strncmp(value.data, "public", 6);
}

MlirOperation tuneFindFunc(MlirModule module, const char *name) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!tuneIsFunc(op))
      continue;
    char *symbol = tuneSymName(op);
    bool found = !strcmp(symbol, name);
    free(symbol);
    if (found)
      return op;
  }
  MlirOperation none = {NULL};
  return none;
}

char *tuneDefaultFunc(MlirModule module, char *error, size_t size) {
  char *found = NULL;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!tuneIsFunc(op) || !tuneFuncHasBody(op) || !tuneFuncIsPublic(op))
      continue;
    char *name = tuneSymName(op);
    if (found) {
      snprintf(error, size,
               "the module has more than one public function ('%s', '%s'): "
               "name one with --function",
               found, name);
      free(found);
      free(name);
      return NULL;
    }
    found = name;
  }
  if (!found)
    snprintf(error, size, "the module has no public function with a body");
  return found;
}

/// Appends `name` to the comma-separated `*list` unless it is there.
static void addName(char **list, const char *name, size_t n) {
  char *storage;
  char *names[64];
  int count = tuneSplitNames(*list, names, 64, &storage);
  bool present = false;
  for (int i = 0; i < count && !present; ++i)
    present = strlen(names[i]) == n && !strncmp(names[i], name, n);
  free(storage);
  if (present)
    return;
  char *grown = tuneFormat("%s%s%.*s", *list, **list ? "," : "", (int)n, name);
  free(*list);
  *list = grown;
}

char *tuneFuncSignature(MlirOperation func, char **dims, char *error,
                        size_t size) {
  MlirType type = mlirTypeAttrGetValue(getAttr(func, "function_type"));
  MlirAttribute argAttrs = getAttr(func, "arg_attrs");
  char *signature = tuneStrdup("");
  *dims = tuneStrdup("");
  for (intptr_t i = 0, e = mlirFunctionTypeGetNumInputs(type); i < e; ++i) {
    MlirType arg = mlirFunctionTypeGetInput(type, i);
    if (!mlirTypeIsAMemRef(arg)) {
      char *text = tuneTypeString(arg), *name = tuneSymName(func);
      snprintf(error, size,
               "argument #%ld of '%s' is not a memref (%s): the tuner cannot "
               "make it up",
               (long)i, name, text);
      free(text);
      free(name);
      free(signature);
      free(*dims);
      return NULL;
    }
    MlirAttribute shape = {NULL};
    if (!mlirAttributeIsNull(argAttrs) && mlirAttributeIsAArray(argAttrs) &&
        i < mlirArrayAttrGetNumElements(argAttrs))
      shape = mlirDictionaryAttrGetElementByName(
          mlirArrayAttrGetElement(argAttrs, i),
          mlirStringRefCreateFromCString("tile.shape"));
    char *element = tuneTypeString(mlirShapedTypeGetElementType(arg));
    char *entry = tuneFormat("%s%s%s[", signature, i ? ";" : "", element);
    free(element);
    free(signature);
    signature = entry;
    for (intptr_t d = 0, rank = mlirShapedTypeGetRank(arg); d < rank; ++d) {
      char *name;
      if (!mlirAttributeIsNull(shape) && mlirAttributeIsAArray(shape) &&
          d < mlirArrayAttrGetNumElements(shape) &&
          mlirAttributeIsAString(mlirArrayAttrGetElement(shape, d))) {
        MlirStringRef value =
            mlirStringAttrGetValue(mlirArrayAttrGetElement(shape, d));
        // "N<=4096": the name is N (the bound is the host code's check).
        size_t length = value.length;
        for (size_t c = 0; c + 1 < value.length; ++c)
          if (value.data[c] == '<' && value.data[c + 1] == '=') {
            length = c;
            break;
          }
        while (length > 0 && value.data[length - 1] == ' ')
          --length;
        name = tuneStrndup(value.data, length);
      } else if (!mlirShapedTypeIsDynamicDim(arg, d)) {
        name = tuneFormat("%lld", (long long)mlirShapedTypeGetDimSize(arg, d));
      } else {
        name = tuneStrdup("?");
      }
      if (tuneIsName(name, strlen(name)))
        addName(dims, name, strlen(name));
      entry = tuneFormat("%s%s%s", signature, d ? "," : "", name);
      free(name);
      free(signature);
      signature = entry;
    }
    entry = tuneFormat("%s]", signature);
    free(signature);
    signature = entry;
  }
  return signature;
}

char *tuneDefaultDimOrder(const char *dims) {
  char *storage;
  char *names[TUNE_MAX_DIMS + 1];
  int count = tuneSplitNames(dims, names, TUNE_MAX_DIMS + 1, &storage);
  static const char *const order[] = {"B", "batch", "M", "N", "K"};
  bool has[5] = {false};
  bool others = false;
  for (int i = 0; i < count; ++i) {
    bool known = false;
    for (int j = 0; j < 5; ++j)
      if (!strcmp(names[i], order[j]))
        has[j] = known = true;
    others |= !known;
  }
  free(storage);
  if (others || !has[2] || !has[3] || !has[4] || (has[0] && has[1]))
    return tuneStrdup(dims);
  char *result = tuneStrdup("");
  for (int j = 0; j < 5; ++j) {
    if (!has[j])
      continue;
    char *grown = tuneFormat("%s%s%s", result, *result ? "," : "", order[j]);
    free(result);
    result = grown;
  }
  return result;
}
