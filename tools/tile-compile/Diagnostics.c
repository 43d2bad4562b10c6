//===- Diagnostics.c - tile-compile's diagnostics -----------------*- C -*-===//
//
// Errors and warnings (the compiler's decisions that need a word, such as a
// stage count lowered to fit), and with --remarks the remarks, printed as
// tile-opt prints them: `file:line:col: error: ...`, the source line and a
// caret under the column; notes follow their diagnostic.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sourceName;
static const char *sourceText;
static bool printRemarks;

void diagnosticsSetSource(const char *name, const char *text) {
  sourceName = name;
  sourceText = text;
}

void diagnosticsPrintRemarks(bool on) { printRemarks = on; }

static void writeToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/// The file, line and column of `loc`: a file location, or the first one
/// inside a name, call-site (its callee) or fused location.
static bool fileLineCol(MlirLocation loc, MlirStringRef *file, int *line,
                        int *col, int depth) {
  if (depth > 16 || mlirLocationIsNull(loc))
    return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirIdentifier name = mlirLocationFileLineColRangeGetFilename(loc);
    *file = mlirIdentifierStr(name);
    *line = mlirLocationFileLineColRangeGetStartLine(loc);
    *col = mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return fileLineCol(mlirLocationNameGetChildLoc(loc), file, line, col,
                       depth + 1);
  if (mlirLocationIsACallSite(loc))
    return fileLineCol(mlirLocationCallSiteGetCallee(loc), file, line, col,
                       depth + 1);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *locs = n > 0 ? calloc((size_t)n, sizeof(MlirLocation)) : NULL;
    bool found = false;
    if (locs) {
      mlirLocationFusedGetLocations(loc, locs);
      for (intptr_t i = 0; i < n && !found; ++i)
        found = fileLineCol(locs[i], file, line, col, depth + 1);
      free(locs);
    }
    return found;
  }
  return false;
}

/// Prints `loc` as `file:line:col` where it has one, else as MLIR prints it;
/// returns the line and column when the location points into sourceText.
static bool printLocation(MlirLocation loc, FILE *out, int *line, int *col) {
  MlirStringRef file;
  if (!fileLineCol(loc, &file, line, col, 0)) {
    mlirLocationPrint(loc, writeToFile, out);
    return false;
  }
  fprintf(out, "%.*s:%d:%d", (int)file.length, file.data, *line, *col);
  return sourceText && sourceName && strlen(sourceName) == file.length &&
         !strncmp(sourceName, file.data, file.length);
}

/// Prints line `line` of sourceText and a caret under column `col`.
static void printSourceLine(int line, int col, FILE *out) {
  const char *p = sourceText;
  for (int i = 1; i < line && p; ++i) {
    p = strchr(p, '\n');
    if (p)
      ++p;
  }
  if (!p || line < 1)
    return;
  const char *end = strchr(p, '\n');
  int length = end ? (int)(end - p) : (int)strlen(p);
  fprintf(out, "%.*s\n", length, p);
  for (int i = 1; i < col && i <= length; ++i)
    fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

/// Prints a diagnostic as tile-opt does: `file:line:col:`,
/// the message, the source line with a caret; notes follow their diagnostic.
static void printDiagnostic(MlirDiagnostic diagnostic, FILE *out) {
  int line = 0, col = 0;
  bool inSource =
      printLocation(mlirDiagnosticGetLocation(diagnostic), out, &line, &col);
  switch (mlirDiagnosticGetSeverity(diagnostic)) {
  case MlirDiagnosticError:
    fputs(": error: ", out);
    break;
  case MlirDiagnosticWarning:
    fputs(": warning: ", out);
    break;
  case MlirDiagnosticNote:
    fputs(": note: ", out);
    break;
  default:
    fputs(": remark: ", out);
    break;
  }
  mlirDiagnosticPrint(diagnostic, writeToFile, out);
  fputc('\n', out);
  if (inSource)
    printSourceLine(line, col, out);
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diagnostic); i < e; ++i) {
    MlirDiagnostic note = mlirDiagnosticGetNote(diagnostic, i);
    // Not the whole op the diagnostic is attached to (the context's
    // "see current operation" notes): its location says where.
    char *text = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&text, &size);
    if (memory) {
      mlirDiagnosticPrint(note, writeToFile, memory);
      fclose(memory);
    }
    if (!text || strncmp(text, "see current operation", 21))
      printDiagnostic(note, out);
    free(text);
  }
}

MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic, void *userData) {
  (void)userData;
  MlirDiagnosticSeverity severity = mlirDiagnosticGetSeverity(diagnostic);
  if (severity == MlirDiagnosticError || severity == MlirDiagnosticWarning ||
      (printRemarks && severity == MlirDiagnosticRemark))
    printDiagnostic(diagnostic, stderr);
  return mlirLogicalResultSuccess();
}
