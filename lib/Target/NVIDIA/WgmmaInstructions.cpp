//===- WgmmaInstructions.cpp - wgmma descriptors and inline asm -*- C++ -*-===//
//
// Matrix descriptors of wgmma's shared operands and the instruction as
// inline assembly (see WgmmaInstructions.h; Wgmma.cpp documents the
// descriptor bits and operand layouts).
//
//===----------------------------------------------------------------------===//

#include "WgmmaInstructions.h"

#include "tile/Target/IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

static uint64_t swizzleMode(int64_t bytes) {
  return bytes == 128 ? 1 : bytes == 64 ? 2 : 3;
}

FailureOr<DescriptorOperand> nvidia::describe(OpBuilder &b, Location loc,
                                              GemmOp op, const GemmOperand &x,
                                              StringRef name, bool kMajor) {
  FailureOr<SharedOperand> tile = x.resolveShared();
  if (failed(tile))
    return failure();
  if (tile->swizzleBytes < 32 || tile->swizzleUnit != 16 ||
      tile->padBytes != 0 || tile->shape.size() != 2)
    return op.emitOpError("wgmma needs the ")
           << name << " tile in a swizzled shared layout (#tile.shared<swizzle"
           << " = 32|64|128>)";
  DescriptorOperand d{*tile, kMajor,  tile->shape[0], tile->elementBits / 8,
                      0,     Value(), Value()};
  int64_t swizzle = tile->swizzleBytes;
  uint64_t lbo = kMajor ? 16 : uint64_t(d.rows * swizzle);
  uint64_t sbo = 8 * swizzle;
  d.fixed =
      ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (swizzleMode(swizzle) << 62);
  IndexBuilder ib{b, loc};
  Type i32 = b.getI32Type();
  // The buffer start is 16-byte aligned, so (start + offset) >> 4 =
  // (start >> 4) + (offset >> 4); the start's field is an or with the LBO.
  Value start = arith::IndexCastOp::create(
      b, loc, i32,
      tile->address
          ? tile->address
          : memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tile->view));
  auto i32Const = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  // (One op a statement: the op order must not depend on the order the C++
  // compiler evaluates arguments in; design.md 9.)
  Value fixedLow = i32Const(static_cast<int64_t>(d.fixed & 0xFFFFFFFF));
  Value four = i32Const(4);
  Value field = arith::AndIOp::create(b, loc, start, i32Const(0x3FFFF));
  Value shifted = arith::ShRUIOp::create(b, loc, field, four);
  d.baseLow = arith::OrIOp::create(b, loc, shifted, fixedLow);
  d.offset = arith::IndexCastOp::create(b, loc, i32,
                                        ib.mul(tile->origin, ib.idx(d.bytes)));
  return d;
}

// See WgmmaInstructions.h: k steps add a constant to the low word.
Value nvidia::descriptorAt(OpBuilder &b, Location loc,
                           const DescriptorOperand &d, Value mn, int64_t k) {
  IndexBuilder ib{b, loc};
  int64_t swizzle = d.tile.swizzleBytes;
  int64_t panelCols = swizzle / d.bytes;
  Value mnOffset;
  int64_t kOffset;
  if (d.kMajor) {
    mnOffset = ib.mul(mn, ib.idx(swizzle));
    kOffset = (k / panelCols) * d.rows * swizzle + (k % panelCols) * d.bytes;
  } else {
    Value panelBytes = ib.idx(d.rows * swizzle);
    mnOffset = ib.mul(ib.divConst(mn, panelCols), panelBytes);
    kOffset = k * swizzle;
  }
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto i32Const = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value offset = arith::AddIOp::create(
      b, loc, d.offset, arith::IndexCastOp::create(b, loc, i32, mnOffset));
  Value low = arith::AddIOp::create(
      b, loc, d.baseLow, arith::ShRUIOp::create(b, loc, offset, i32Const(4)));
  if (kOffset)
    low = arith::AddIOp::create(b, loc, low, i32Const(kOffset >> 4));
  Value fixedHigh = arith::ConstantIntOp::create(
      b, loc, static_cast<int64_t>(d.fixed & ~uint64_t(0xFFFFFFFF)), 64);
  Value wide = arith::ExtUIOp::create(b, loc, i64, low);
  return arith::OrIOp::create(b, loc, wide, fixedHigh);
}

Value nvidia::emitWgmmaAsm(OpBuilder &b, Location loc, const WgmmaAsm &w) {
  auto type = cast<LLVM::LLVMStructType>(w.acc.getType());
  int64_t regs = type.getBody().size();
  SmallVector<Value> operands;
  for (int64_t i = 0; i < regs; ++i)
    operands.push_back(
        LLVM::ExtractValueOp::create(b, loc, w.acc, ArrayRef<int64_t>{i}));
  bool registerA = !w.descA;
  if (registerA)
    llvm::append_range(operands, w.a);
  else
    operands.push_back(w.descA);
  operands.push_back(w.descB);
  if (w.meta)
    operands.push_back(w.meta);
  Type i32 = b.getI32Type();
  operands.push_back(
      w.accumulate
          ? arith::ExtUIOp::create(b, loc, i32, w.accumulate).getResult()
          : LLVM::ConstantOp::create(b, loc, i32, int64_t(w.scaleD))
                .getResult());
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  // Operands: the outputs $0.., the tied inputs, then A (one descriptor or
  // four registers), B, the sparsity metadata (wgmma.sp) and scale-d.
  int64_t first = 2 * regs;
  int64_t aRegs = registerA ? int64_t(w.a.size()) : 1;
  int64_t descB = first + aRegs, meta = descB + 1;
  int64_t scale = w.meta ? meta + 1 : descB + 1;
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << scale << ", 0;\n"
     << "wgmma.mma_async" << (w.meta ? ".sp" : "") << ".sync.aligned.m64n"
     << w.n << "k" << w.k << ".f32." << w.typeA << "." << w.typeB << " {";
  for (int64_t i = 0; i < regs; ++i) {
    os << (i ? ", $" : "$") << i;
    cs << "=f,";
  }
  os << "}, ";
  if (registerA) {
    os << "{";
    for (int64_t i = 0; i < aRegs; ++i)
      os << (i ? ", $" : "$") << first + i;
    os << "}";
  } else {
    os << "$" << first;
  }
  os << ", $" << descB;
  if (w.meta)
    os << ", $" << meta << ", 0"; // sparsity selector 0
  os << ", p, 1, 1";
  // Transposes: 16-bit inputs only (k16 dense, k32 sparse).
  if (w.typeA == "f16" || w.typeA == "bf16") {
    if (!registerA)
      os << ", " << w.transposeA;
    os << ", " << w.transposeB;
  }
  os << ";\n}";
  for (int64_t i = 0; i < regs; ++i)
    cs << i << ",";
  for (int64_t i = 0; i < aRegs; ++i)
    cs << (registerA ? "r," : "l,");
  cs << "l," << (w.meta ? "r," : "") << (w.accumulate ? "r" : "n");
  return LLVM::InlineAsmOp::create(
             b, loc, type, operands, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

/// The PTX and NVVM names of a wgmma input type.
StringRef nvidia::getPtxType(Type t) {
  if (t.isBF16())
    return "bf16";
  if (isa<Float8E4M3FNType>(t))
    return "e4m3";
  if (isa<Float8E5M2Type>(t))
    return "e5m2";
  return "f16";
}

NVVM::WGMMATypes nvidia::getNvvmType(Type t) {
  if (t.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (isa<Float8E4M3FNType>(t))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(t))
    return NVVM::WGMMATypes::e5m2;
  return NVVM::WGMMATypes::f16;
}

Value nvidia::loadSparseMetadata(OpBuilder &b, Location loc,
                                 const SharedOperand &meta, Value rows,
                                 Value lane, int64_t ks) {
  IndexBuilder ib{b, loc};
  Type i32 = b.getI32Type();
  Value row = ib.add(rows, ib.shrConst(lane, 2));
  Value odd = ib.andConst(lane, 1);
  Value col = ib.add(ib.idx(ks * 2), odd);
  auto word = [&](Value r) {
    Value v = memref::LoadOp::create(b, loc, meta.view,
                                     ValueRange{meta.index(b, loc, {r, col})});
    return arith::ExtUIOp::create(b, loc, i32, v).getResult();
  };
  Value low = word(row), high = word(ib.add(row, ib.idx(8)));
  return arith::OrIOp::create(
      b, loc, low,
      arith::ShLIOp::create(b, loc, high,
                            arith::ConstantIntOp::create(b, loc, 16, 32)));
}

FailureOr<SharedOperand> nvidia::resolveSparseMetadata(const GemmEmission &g) {
  if (!g.meta.resolveShared) {
    GemmOp op = g.op;
    return op.emitOpError("has no sparsity metadata operand to lower");
  }
  return g.meta.resolveShared();
}

SmallVector<Value> nvidia::carrySparseMetadata(OpBuilder &b, Location loc,
                                               const GemmEmission &g,
                                               ArrayRef<Value> metas) {
  IndexBuilder ib{b, loc};
  auto [previousArray, ownArray] = g.carriedArrays(
      MemRefType::get({static_cast<int64_t>(metas.size())}, b.getI32Type()));
  SmallVector<Value> previous;
  for (size_t i = 0; i < metas.size(); ++i)
    previous.push_back(
        memref::LoadOp::create(b, loc, previousArray, ValueRange{ib.idx(i)}));
  for (size_t i = 0; i < metas.size(); ++i)
    memref::StoreOp::create(b, loc, metas[i], ownArray, ValueRange{ib.idx(i)});
  return previous;
}

void nvidia::keepRegistersLive(OpBuilder &b, Location loc, ValueRange values) {
  std::string text, constraints;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred kp;\n.shared .align 4 .b32 keep;\n"
     << "setp.eq.u32 kp, $0, 0x7fffffff;\n";
  for (size_t i = 0; i < values.size(); ++i) {
    os << "@kp st.shared.b32 [keep], $" << i << ";\n";
    constraints += i ? ",r" : "r";
  }
  os << "}";
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, values, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}
