"""tile-fuzz: an MLIR-aware mutation fuzzer for tile-opt (standard library only).

Modules:
  corpus     -- seed inputs: examples and lit test inputs, split and stripped
  mutate     -- text-level, syntax-aware mutations of MLIR
  pipelines  -- the tile-opt pipelines to run (passes read from --help)
  runner     -- running tile-opt/ptxas under limits and classifying outcomes
  minimize   -- delta debugging that keeps a finding's signature
  findings   -- writing findings, the summary, regression re-runs, lit tests
"""
