"""Loading a compiled library and calling its functions."""

import ctypes
import json
import struct
import threading

from . import _args
from ._errors import TileError

_SIGNATURES_SYMBOL = "tile_mlir_signatures"

# Per thread: the stream last set in each runtime (keyed by Runtime.key).
_THREAD = threading.local()


class _Runtime:
    """The tile runtime functions, reached through a library's handle (the
    library links libtile_cuda_runtime.so, and dlsym searches the libraries
    a handle depends on)."""

    def __init__(self, cdll):
        def fn(name, restype, *argtypes):
            f = getattr(cdll, name)
            f.restype = restype
            f.argtypes = list(argtypes)
            return f

        vp = ctypes.c_void_p
        self.get_error = fn("tileRtGetError", ctypes.c_int)
        self.get_error_message = fn("tileRtGetErrorMessage", ctypes.c_char_p)
        self.clear_error = fn("tileRtClearError", None)
        self.set_stream = fn("tileRtSetStream", None, vp)
        self.get_stream = fn("tileRtGetStream", vp)
        self.set_synchronous = fn("tileRtSetSynchronous", None, ctypes.c_int)
        self.mem_alloc = fn("mgpuMemAlloc", vp, ctypes.c_uint64, vp,
                            ctypes.c_bool)
        self.mem_free = fn("mgpuMemFree", None, vp, vp)
        self.memcpy = fn("mgpuMemcpy", None, vp, vp, ctypes.c_size_t, vp)
        self.stream_synchronize = fn("mgpuStreamSynchronize", None, vp)
        # The runtime's identity: where its tileRtSetStream is.
        self.key = ctypes.cast(self.set_stream, ctypes.c_void_p).value

    def check(self, what=None):
        code = self.get_error()
        if code != 0:
            message = (self.get_error_message() or b"").decode(
                "utf-8", "replace")
            self.clear_error()
            raise TileError(code, (what + ": " if what else "") + message)


def _describe(arg):
    if arg["kind"] == "scalar":
        return "%s: %s" % (arg["name"], arg["type"])
    dims = arg.get("dims") or ["?" if s is None else str(s)
                               for s in arg["shape"]]
    bounds = arg.get("bounds") or [None] * len(dims)
    dims = [d if b is None else "%s<=%d" % (d, b) for d, b in zip(dims, bounds)]
    return "%s: %s[%s]" % (arg["name"], arg["element"], ", ".join(dims))


class Function:
    """A public function of a compiled library. Calling it launches its
    kernels on the current stream (torch's current stream when a CUDA tensor
    is passed) and returns without waiting, as the C function does; errors
    the runtime records (no GPU, arguments the host code rejects, launch
    failures) raise TileError."""

    def __init__(self, library, entry):
        self._library = library
        self.name = entry["name"]
        self.args = entry["args"]
        self.result = entry["result"]
        argtypes = []
        # The descriptors of one call are packed into one buffer (struct
        # layout of tile_memref_<r>d: two pointers, then int64 offset, sizes
        # and strides, all 8 bytes); each argument is its address.
        layout, self._offsets = "=", []
        for arg in self.args:
            if arg["kind"] == "memref":
                self._offsets.append(struct.calcsize(layout))
                layout += "QQq" + "q" * (2 * len(arg["shape"]))
                argtypes.append(ctypes.c_void_p)
            else:
                argtypes.append(_args.SCALAR_TYPES.get(arg["type"],
                                                       ctypes.c_void_p))
        self._memref_args = [(i, a) for i, a in enumerate(self.args)
                             if a["kind"] == "memref"]
        self._layout = struct.Struct(layout)
        self._buffer_type = ctypes.c_char * max(self._layout.size, 1)
        self._fn = getattr(library._cdll, self.name)
        self._fn.argtypes = argtypes
        self._fn.restype = (_args.SCALAR_TYPES.get(self.result)
                            if self.result else None)

    @property
    def signature(self):
        text = "%s(%s)" % (self.name, ", ".join(_describe(a)
                                                 for a in self.args))
        return text + (" -> " + self.result if self.result else "")

    def __repr__(self):
        return "<tile_mlir.Function %s>" % self.signature

    def __call__(self, *values):
        if len(values) != len(self.args):
            raise TypeError("%s takes %d arguments (%s), got %d"
                            % (self.name, len(self.args),
                               ", ".join(a["name"] for a in self.args),
                               len(values)))
        rt = self._library._runtime
        views, call_args = [], []
        host = False
        for index, (value, arg) in enumerate(zip(values, self.args)):
            if arg["kind"] == "memref":
                view = _args.view_of(value)
                _args.check_view(view, arg, self.name, index)
                views.append(view)
                host = host or view.host_array is not None
                call_args.append(None)  # filled in below
            else:
                call_args.append(_args.scalar_of(value, arg, self.name,
                                                 index))
        _args.check_dims(views, self._memref_args, self.name)
        self._library._use_stream(self._stream(views))
        if not host:
            # GPU arrays only: descriptors of the views themselves.
            buffer = self._pack(views, [v.pointer for v in views],
                                [v.strides for v in views], call_args)
            result = self._fn(*call_args)
            del buffer
            rt.check()
            return result
        copies = []
        try:
            pointers, strides = [], []
            for (index, arg), view in zip(self._memref_args, views):
                what = "%s: copying argument #%d (%s)" % (self.name, index,
                                                          arg["name"])
                if view.host_array is None:
                    pointers.append(view.pointer)
                    strides.append(view.strides)
                else:
                    pointer, stride = self._copy_in(view, rt, copies, what)
                    pointers.append(pointer)
                    strides.append(stride)
            buffer = self._pack(views, pointers, strides, call_args)
            result = self._fn(*call_args)
            del buffer
            rt.check()
            self._copy_back(rt, copies)
        finally:
            for copy in copies:
                if copy["device"]:
                    rt.mem_free(copy["device"], rt.get_stream())
        return result

    @staticmethod
    def _stream(views):
        """Torch's current stream when a CUDA torch tensor is passed, else
        None (the thread's stream stays)."""
        for view in views:
            if view.torch:
                return _args.torch_current_stream()
        return None

    def _pack(self, views, pointers, strides, call_args):
        """Packs the memref descriptors into a new buffer and puts their
        addresses into `call_args`; the buffer must outlive the call (the
        offset field is 0: each pointer is its view's first element)."""
        values = []
        for view, pointer, stride in zip(views, pointers, strides):
            values += (pointer, pointer, 0)
            values += view.shape
            values += stride
        buffer = self._buffer_type()
        self._layout.pack_into(buffer, 0, *values)
        base = ctypes.addressof(buffer)
        for (index, _), offset in zip(self._memref_args, self._offsets):
            call_args[index] = base + offset
        return buffer

    @staticmethod
    def _host_numpy(view):
        import numpy
        if isinstance(view.host_array, tuple):  # a DLPack host array
            return numpy.from_dlpack(view.keep[0])
        return view.host_array

    def _copy_in(self, view, rt, copies, what):
        import numpy
        array = self._host_numpy(view)
        contiguous = numpy.ascontiguousarray(array)
        itemsize = contiguous.itemsize
        strides = [s // itemsize for s in contiguous.strides]
        if contiguous.nbytes == 0:
            return 0, strides
        stream = rt.get_stream()
        device = rt.mem_alloc(contiguous.nbytes, stream, False)
        copies.append({"device": device, "array": array,
                       "contiguous": contiguous, "what": what})
        rt.check(what + " to the GPU")
        rt.memcpy(device, contiguous.ctypes.data, contiguous.nbytes, stream)
        rt.check(what + " to the GPU")
        return device, strides

    @staticmethod
    def _copy_back(rt, copies):
        import numpy
        stream = rt.get_stream()
        for copy in copies:
            if not copy["device"] or not copy["array"].flags.writeable:
                continue
            contiguous = copy["contiguous"]
            if not contiguous.flags.writeable:
                contiguous = contiguous.copy()
            rt.memcpy(contiguous.ctypes.data, copy["device"],
                      contiguous.nbytes, stream)
            rt.stream_synchronize(stream)
            rt.check(copy["what"] + " back from the GPU")
            if contiguous is not copy["array"]:
                numpy.copyto(copy["array"], contiguous)


class Library:
    """A shared library compiled by tile-compile: its public functions are
    attributes (``lib.gemm(A, B, C)``), described by the table the library
    embeds (``tile_mlir_signatures``)."""

    def __init__(self, path):
        self.path = path
        self._cdll = ctypes.CDLL(path)
        try:
            table = ctypes.c_char.in_dll(self._cdll, _SIGNATURES_SYMBOL)
        except ValueError:
            raise ValueError("%s has no function table (%s): build it with "
                             "tile-compile (not -c)"
                             % (path, _SIGNATURES_SYMBOL)) from None
        self.signatures = json.loads(ctypes.string_at(
            ctypes.addressof(table)).decode("utf-8"))
        if self.signatures.get("version") != 1:
            raise ValueError("%s: function table version %r is not 1"
                             % (path, self.signatures.get("version")))
        self._runtime = _Runtime(self._cdll)
        # A failure of the library's constructors (loading its kernels; no
        # GPU) is reported again by each call ("module not loaded: ...").
        self._runtime.clear_error()
        self.functions = {entry["name"]: Function(self, entry)
                          for entry in self.signatures["functions"]}

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError("%s has no function %r (it has: %s)"
                             % (self.__dict__.get("path", "library"), name,
                                ", ".join(sorted(functions)) or "none"))

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions)

    def __repr__(self):
        return "<tile_mlir.Library %s: %s>" % (
            self.path, ", ".join(f.signature
                                 for f in self.functions.values()))

    def synchronize(self):
        """Waits for the work of earlier calls on the current stream and
        raises TileError for a failure (a kernel fault shows up here)."""
        rt = self._runtime
        rt.stream_synchronize(rt.get_stream())
        rt.check("synchronize")

    def _use_stream(self, stream):
        """Makes `stream` the thread's stream unless it is already (the
        runtime's stream is per thread, and so is this cache, which is
        shared by the libraries over the same runtime)."""
        if stream is None:
            return
        streams = _THREAD.__dict__.setdefault("streams", {})
        if streams.get(self._runtime.key) == stream:
            return
        self._runtime.set_stream(stream or None)
        streams[self._runtime.key] = stream

    def set_stream(self, stream):
        """Sets the calling thread's stream for later calls (a CUstream
        handle as an int, e.g. torch's ``stream.cuda_stream``; 0 for the
        legacy default stream). Calls with CUDA torch tensors use torch's
        current stream instead."""
        self._runtime.set_stream(stream or None)
        _THREAD.__dict__.setdefault("streams", {})[self._runtime.key] = \
            stream or 0

    def set_synchronous(self, on=True):
        """Synchronous mode (all threads): every call waits for its work
        and reports its failures, as TILE_RT_SYNC=1 does."""
        self._runtime.set_synchronous(1 if on else 0)
