"""Exceptions of the tile_mlir package."""


class TileError(RuntimeError):
    """An error the tile runtime reported for a call (no GPU, a bad argument
    the compiled host function found, a failed launch).

    ``code`` is the runtime's status: a negative ``TILE_RT_ERROR_*`` value of
    tile_runtime.h or a positive CUDA driver error (CUresult)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class CompileError(RuntimeError):
    """tile-compile or tile-tune failed: ``diagnostics`` holds what it
    printed (located errors with the source line)."""

    def __init__(self, message, diagnostics=""):
        super().__init__(message + ("\n" + diagnostics if diagnostics else ""))
        self.diagnostics = diagnostics
