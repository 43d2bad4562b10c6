//===- HostArgumentChecks.cpp - Checks of a host function's memrefs -------===//
//
// The argument checks tile-prepare-host emits at the start of a host
// function (HostArgumentChecks.h).
//
//===----------------------------------------------------------------------===//

#include "HostArgumentChecks.h"

#include "tile/Dialect/ShapeSpec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using tile::host::ReportFn;

namespace {

/// One constraint of a `tile.shape` attribute on a function argument.
struct DimRef {
  unsigned argument;
  unsigned dim;
  Value size;
};

/// A size derived from a name ("ceil(K/128)"), checked once every name's
/// size is known.
struct QuotientRef {
  tile::ShapeEntry entry;
  unsigned argument;
  unsigned dim;
  Value size;
  std::string what;
};

} // namespace

/// The elements of a strided memref lie at offset + sum_d i_d *
/// stride_d, 0 <= i_d < size_d. Where it is not empty, each (size_d - 1) *
/// stride_d, their sum with the offset, and the byte offset of the end of
/// the last element must fit in 64 bits (the kernels and the runtime
/// compute addresses with them). The checks before made the sizes and
/// the offset non-negative and the strides that matter positive; these
/// ones only compute with wrapping arithmetic, whatever the values.
static void checkExtent(OpBuilder &builder, Location loc, MemRefType type,
                        const std::string &what, ArrayRef<Value> sizes,
                        ArrayRef<Value> strides, Value offset,
                        function_ref<Value(Value)> ifNonEmpty,
                        ReportFn report) {
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i64, value);
  };
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(builder, loc, i64, index);
  };
  Value zero = constant(0), one = constant(1), signBit = constant(63);
  // `result` = lhs * rhs; true where the signed product overflows.
  auto mulOverflows = [&](Value lhs, Value rhs, Value &result) -> Value {
    auto mul = arith::MulSIExtendedOp::create(builder, loc, lhs, rhs);
    result = mul.getLow();
    Value sign = arith::ShRSIOp::create(builder, loc, result, signBit);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                 mul.getHigh(), sign);
  };
  // `result` = lhs + rhs; true where the signed sum overflows.
  auto addOverflows = [&](Value lhs, Value rhs, Value &result) -> Value {
    result = arith::AddIOp::create(builder, loc, lhs, rhs);
    Value fromRhs = arith::XOrIOp::create(builder, loc, rhs, result);
    Value fromLhs = arith::XOrIOp::create(builder, loc, lhs, result);
    Value both = arith::AndIOp::create(builder, loc, fromLhs, fromRhs);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, both,
                                 zero);
  };
  auto orOf = [&](Value lhs, Value rhs) -> Value {
    return arith::OrIOp::create(builder, loc, lhs, rhs);
  };
  Value last = toI64(offset);
  Value sumOverflows;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (!type.isDynamicDim(d) && type.getDimSize(d) <= 1)
      continue; // its index is 0: any stride
    Value span;
    Value steps = arith::SubIOp::create(builder, loc, toI64(size), one);
    Value overflows = mulOverflows(steps, toI64(strides[d]), span);
    report(ifNonEmpty(overflows),
           what + " dimension " + Twine(d) +
               ": (size - 1) * stride overflows 64 bits (stride ",
           strides[d], ")");
    Value added = addOverflows(last, span, last);
    sumOverflows =
        orOf(sumOverflows ? orOf(sumOverflows, overflows) : overflows, added);
  }
  // The end of the last element, in bytes.
  int64_t elementBytes = 1;
  if (type.getElementType().isIntOrFloat())
    elementBytes =
        std::max<int64_t>(1, (type.getElementTypeBitWidth() + 7) / 8);
  Value end, endBytes;
  Value endOverflows = addOverflows(last, one, end);
  Value bad =
      orOf(endOverflows, mulOverflows(end, constant(elementBytes), endBytes));
  if (sumOverflows)
    bad = orOf(sumOverflows, bad);
  report(ifNonEmpty(bad), what + " has offset ", offset,
         " and sizes and strides whose extent overflows 64-bit byte "
         "offsets");
}

/// `type` as the IR prints it.
static std::string formatType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

void mlir::tile::host::checkArguments(func::FuncOp func,
                                      ArrayRef<MemRefType> original,
                                      OpBuilder &builder, ReportFn report) {
  Location loc = func.getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto cmp = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs).getResult();
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  llvm::StringMap<DimRef> symbols;
  SmallVector<QuotientRef> quotients;
  for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
    MemRefType type = original[index];
    if (!type)
      type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      continue;
    std::string what = ("argument #" + Twine(index)).str();
    SmallVector<int64_t> staticStrides;
    int64_t staticOffset;
    bool strided =
        succeeded(type.getStridesAndOffset(staticStrides, staticOffset));
    // The descriptor's sizes (static ones of a layout that is not strided
    // fold to the type's), strides and offset.
    SmallVector<Value> sizes, strides;
    Value offset;
    if (strided) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(builder, loc, arg);
      llvm::append_range(sizes, metadata.getSizes());
      llvm::append_range(strides, metadata.getStrides());
      offset = metadata.getOffset();
    } else {
      for (int64_t d = 0; d < type.getRank(); ++d)
        sizes.push_back(memref::DimOp::create(builder, loc, arg, d));
    }
    // Negative sizes first (a static size is compared exactly below).
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        report(cmp(arith::CmpIPredicate::slt, sizes[d], zero),
               what + " has negative size ", sizes[d],
               " in dimension " + Twine(d));
    // Static sizes: the other checks trust them.
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.isDynamicDim(d) || !strided)
        continue;
      int64_t size = type.getDimSize(d);
      report(cmp(arith::CmpIPredicate::ne, sizes[d], constant(size)),
             what + " dimension " + Twine(d) + " must be " + Twine(size) +
                 ", got ",
             sizes[d], "");
    }
    // Whether the memref has any element.
    Value nonEmpty;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      Value positive = cmp(arith::CmpIPredicate::sgt, sizes[d], zero);
      nonEmpty = nonEmpty
                     ? arith::AndIOp::create(builder, loc, nonEmpty, positive)
                     : positive;
    }
    // A static size 0 (which the caller's descriptor must have): an empty
    // memref, whose pointer, strides and offset are never read.
    bool staticallyEmpty = llvm::is_contained(type.getShape(), 0);
    if (!staticallyEmpty) {
      // `bad` where the memref has an element.
      auto ifNonEmpty = [&](Value bad) -> Value {
        return nonEmpty ? arith::AndIOp::create(builder, loc, nonEmpty, bad)
                              .getResult()
                        : bad;
      };
      Value pointer =
          memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, arg);
      report(ifNonEmpty(cmp(arith::CmpIPredicate::eq, pointer, zero)),
             what + " (" + formatType(type) +
                 ") is a null pointer but not empty",
             Value(), "");
      // Strides matter only in dimensions of more than one element of a
      // memref that is not empty: there a static stride must be the
      // type's, and a dynamic one positive (the kernels step through
      // memory with them).
      for (auto [d, stride] : llvm::enumerate(staticStrides)) {
        if (!type.isDynamicDim(d) && type.getDimSize(d) <= 1)
          continue;
        Value many = ifNonEmpty(cmp(arith::CmpIPredicate::sgt, sizes[d], one));
        if (ShapedType::isDynamic(stride)) {
          Value notPositive = cmp(arith::CmpIPredicate::sle, strides[d], zero);
          report(arith::AndIOp::create(builder, loc, many, notPositive),
                 what + " has a non-positive stride in dimension " + Twine(d),
                 Value(), "");
          continue;
        }
        Value differs =
            cmp(arith::CmpIPredicate::ne, strides[d], constant(stride));
        report(arith::AndIOp::create(builder, loc, many, differs),
               what + " has stride ", strides[d],
               " in dimension " + Twine(d) + ", but its type requires " +
                   Twine(stride));
      }
      // A static offset must be the type's, a dynamic one not negative;
      // then the extent must fit in 64-bit byte offsets.
      if (strided && !ShapedType::isDynamic(staticOffset)) {
        report(ifNonEmpty(cmp(arith::CmpIPredicate::ne, offset,
                              constant(staticOffset))),
               what + " has offset ", offset,
               ", but its type requires " + Twine(staticOffset));
      } else if (strided) {
        report(ifNonEmpty(cmp(arith::CmpIPredicate::slt, offset, zero)),
               what + " has negative offset ", offset, "");
      }
      if (strided)
        checkExtent(builder, loc, type, what, sizes, strides, offset,
                    ifNonEmpty, report);
    }
    // tile.shape: exact sizes and sizes shared by name.
    auto shape = func.getArgAttrOfType<ArrayAttr>(index, "tile.shape");
    if (!shape)
      continue;
    for (auto [d, entry] : llvm::enumerate(shape)) {
      std::string error;
      std::optional<tile::ShapeEntry> parsed =
          tile::parseShapeEntry(cast<StringAttr>(entry).getValue(), error);
      if (!parsed || parsed->kind == tile::ShapeEntry::Kind::Any)
        continue; // malformed ones are tile-prepare-host's errors
      if (parsed->kind == tile::ShapeEntry::Kind::Size) {
        if (!type.isDynamicDim(d))
          continue; // the type's size, checked above
        report(cmp(arith::CmpIPredicate::ne, sizes[d], constant(parsed->size)),
               what + " dimension " + Twine(d) + " must be " +
                   Twine(parsed->size) + ", got ",
               sizes[d], "");
        continue;
      }
      if (parsed->kind == tile::ShapeEntry::Kind::Quotient) {
        quotients.push_back({*parsed, static_cast<unsigned>(index),
                             static_cast<unsigned>(d), sizes[d], what});
        continue;
      }
      StringRef symbol = parsed->name;
      if (parsed->bound)
        report(
            cmp(arith::CmpIPredicate::sgt, sizes[d], constant(*parsed->bound)),
            what + " dimension " + Twine(d) + " ('" + symbol +
                "') must be at most " + Twine(*parsed->bound) + ", got ",
            sizes[d], "");
      auto [it, inserted] = symbols.try_emplace(
          symbol, DimRef{static_cast<unsigned>(index), static_cast<unsigned>(d),
                         sizes[d]});
      if (inserted)
        continue;
      const DimRef &first = it->second;
      report(cmp(arith::CmpIPredicate::ne, sizes[d], first.size),
             what + " dimension " + Twine(d) + " ('" + symbol +
                 "') differs from argument #" + Twine(first.argument) +
                 " dimension " + Twine(first.dim) + " ('" + symbol + "')",
             Value(), "");
    }
  }
  // Derived sizes: [FACTOR *] ceil(NAME / DIVISOR) or FACTOR * NAME (a
  // divisor of 1), NAME's size taken where
  // it first appears (tile-prepare-host checked that it does).
  for (const QuotientRef &q : quotients) {
    auto it = symbols.find(q.entry.name);
    if (it == symbols.end())
      continue;
    Value expected = arith::CeilDivUIOp::create(builder, loc, it->second.size,
                                                constant(q.entry.divisor));
    std::string factor;
    if (q.entry.factor != 1) {
      expected = arith::MulIOp::create(builder, loc, expected,
                                       constant(q.entry.factor));
      factor = std::to_string(q.entry.factor) + "*";
    }
    std::string source = "argument #" + std::to_string(it->second.argument) +
                         " dimension " + std::to_string(it->second.dim);
    if (q.entry.divisor == 1)
      report(cmp(arith::CmpIPredicate::ne, q.size, expected),
             q.what + " dimension " + Twine(q.dim) + " must be " + factor +
                 q.entry.name + " = " + factor + "(" + source + "), got ",
             q.size, "");
    else
      report(cmp(arith::CmpIPredicate::ne, q.size, expected),
             q.what + " dimension " + Twine(q.dim) + " must be " + factor +
                 "ceil(" + q.entry.name + "/" + Twine(q.entry.divisor) +
                 ") = " + factor + "ceil(" + source + " / " +
                 Twine(q.entry.divisor) + "), got ",
             q.size, "");
  }
}
