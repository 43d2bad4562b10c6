; f32 -> bf16 in x86-64 host code: LLVM lowers it through __truncsfbf2
; (test/Runtime/bf16-support.test).
define void @to_bf16(float %f, ptr %out) {
  %b = fptrunc float %f to bfloat
  store bfloat %b, ptr %out
  ret void
}
