//===- IndexBuilder.h - Terse index arithmetic for emitters -----*- C++ -*-===//
//
// Thin wrappers over `arith` ops on `index` values, shared by the per-op
// lowering and the targets' instruction emitters.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_INDEXBUILDER_H
#define TILE_TARGET_INDEXBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {

struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value idx(int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value addConst(Value x, int64_t c) const {
    return c == 0 ? x : add(x, idx(c));
  }
  Value andConst(Value x, int64_t c) const {
    return arith::AndIOp::create(b, loc, x, idx(c));
  }
  Value shrConst(Value x, int64_t c) const {
    return c == 0 ? x : arith::ShRUIOp::create(b, loc, x, idx(c)).getResult();
  }
  Value xorV(Value x, Value y) const {
    return arith::XOrIOp::create(b, loc, x, y);
  }
  Value remConst(Value x, int64_t c) const {
    return arith::RemUIOp::create(b, loc, x, idx(c));
  }
  Value divConst(Value x, int64_t c) const {
    return arith::DivUIOp::create(b, loc, x, idx(c));
  }
  Value ult(Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  /// Conjunction where a null condition means "true".
  Value andBool(Value x, Value y) const {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AndIOp::create(b, loc, x, y);
  }
};

} // namespace mlir::tile

#endif // TILE_TARGET_INDEXBUILDER_H
