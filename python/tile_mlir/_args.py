"""Turning Python values into the arguments of compiled functions.

A memref argument is passed as a pointer to an MLIR memref descriptor
(allocated and aligned pointers, offset, sizes and strides in elements).
GPU arrays (CUDA torch tensors, CUDA DLPack producers such as CuPy) are
passed in place; host arrays (NumPy, CPU tensors through DLPack) are copied
to the GPU for the call and back after it.
"""

import ctypes
import math
import struct

# DLPack (dlpack.h): the C structures behind __dlpack__'s capsule.
_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13
# DLDataTypeCode: int, uint, float, bfloat, bool; float8 codes of dlpack 1.0.
_DL_CODES = {
    (0, 8): "i8", (0, 16): "i16", (0, 32): "i32", (0, 64): "i64",
    (1, 8): "ui8", (1, 16): "ui16", (1, 32): "ui32", (1, 64): "ui64",
    (2, 16): "f16", (2, 32): "f32", (2, 64): "f64",
    (4, 16): "bf16", (6, 8): "i1",
    (8, 8): "f8E4M3FN", (10, 8): "f8E5M2",
}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

# Element types: the MLIR spelling, its size in bytes, torch's and NumPy's
# names (NumPy has no bfloat16 or float8 of its own: ml_dtypes' names).
ELEMENT_SIZES = {
    "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "index": 8,
    "ui8": 1, "ui16": 2, "ui32": 4, "ui64": 8,
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "f8E4M3FN": 1, "f8E5M2": 1,
}
_TORCH_NAMES = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "ui8", "float16": "f16", "bfloat16": "bf16",
    "float32": "f32", "float64": "f64", "float8_e4m3fn": "f8E4M3FN",
    "float8_e5m2": "f8E5M2",
}
_NUMPY_NAMES = dict(_TORCH_NAMES, uint16="ui16", uint32="ui32",
                    uint64="ui64")


def _same_element(expected, actual):
    # Signless integers take either signedness of the same width.
    if expected == actual:
        return True
    if expected.startswith("i") and actual.startswith("ui"):
        return expected[1:] == actual[2:]
    return expected == "index" and actual == "i64"


_DESCRIPTORS = {}


def descriptor_type(rank):
    """The ctypes structure of a rank-`rank` memref descriptor."""
    if rank not in _DESCRIPTORS:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank > 0:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _DESCRIPTORS[rank] = type("tile_memref_%dd" % rank,
                                  (ctypes.Structure,), {"_fields_": fields})
    return _DESCRIPTORS[rank]


SCALAR_TYPES = {
    "index": ctypes.c_int64, "i64": ctypes.c_int64, "i32": ctypes.c_int32,
    "i16": ctypes.c_int16, "i8": ctypes.c_int8, "i1": ctypes.c_bool,
    "ui64": ctypes.c_uint64, "ui32": ctypes.c_uint32, "ui16": ctypes.c_uint16,
    "ui8": ctypes.c_uint8, "f32": ctypes.c_float, "f64": ctypes.c_double,
    # 16-bit floats travel as their bits (the C header's uint16_t).
    "f16": ctypes.c_uint16, "bf16": ctypes.c_uint16,
}


def _bits(value, type_name):
    """The bits of `value` as an f16 or bf16 (round to nearest even)."""
    if type_name == "f16":
        try:
            return struct.unpack("<H", struct.pack("<e", value))[0]
        except OverflowError:
            return 0xFC00 if value < 0 else 0x7C00
    if math.isnan(value):
        return 0x7FC0
    try:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        return 0xFF80 if value < 0 else 0x7F80
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


class _View:
    """What a memref argument is made of: a data pointer (in elements of
    `element`), sizes and strides in elements, where the data lives (a CUDA
    device ordinal, or -1 for host memory), and the object to keep alive
    during the call."""

    __slots__ = ("pointer", "shape", "strides", "element", "device", "keep",
                 "host_array", "torch")

    def __init__(self, pointer, shape, strides, element, device, keep,
                 host_array=None, torch=False):
        self.pointer = pointer
        self.shape = shape
        self.strides = strides
        self.element = element
        self.device = device
        self.keep = keep
        self.host_array = host_array  # a NumPy array to copy in and out
        self.torch = torch  # a CUDA torch tensor (torch's stream applies)


_torch = None
_raw_stream = None


def torch_module():
    global _torch
    if _torch is None:
        import torch
        _torch = torch
    return _torch


def torch_current_stream():
    """The CUstream handle of torch's current stream on device 0: torch's
    raw getter where it has one (no Stream object per call), else
    torch.cuda.current_stream()."""
    global _raw_stream
    if _raw_stream is None:
        torch = torch_module()
        getter = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = ((lambda: getter(0)) if getter else
                       (lambda: torch.cuda.current_stream().cuda_stream))
    return _raw_stream()


_TORCH_ELEMENTS = {}  # torch dtype -> element type


def _torch_view(value):
    dtype = value.dtype
    element = _TORCH_ELEMENTS.get(dtype)
    if element is None:
        name = str(dtype).replace("torch.", "")
        element = _TORCH_NAMES.get(name)
        if element is None:
            raise TypeError("torch dtype %s has no tile element type" % name)
        _TORCH_ELEMENTS[dtype] = element
    if not value.is_cuda:
        return None  # through DLPack: a host array
    return _View(value.data_ptr(), tuple(value.shape), value.stride(),
                 element, value.get_device(), value, torch=True)


def _numpy_view(value):
    element = _NUMPY_NAMES.get(value.dtype.name)
    if element is None:
        raise TypeError("NumPy dtype %s has no tile element type"
                        % value.dtype.name)
    return _View(None, value.shape, (), element, -1, value,
                 host_array=value)


def _dlpack_view(value):
    try:
        capsule = value.__dlpack__()
    except TypeError:
        capsule = value.__dlpack__(stream=None)
    address = _capsule_get_pointer(capsule, b"dltensor")
    # DLManagedTensor starts with its DLTensor.
    tensor = _DLTensor.from_address(address)
    key = (tensor.dtype.code, tensor.dtype.bits)
    if tensor.dtype.lanes != 1 or key not in _DL_CODES:
        raise TypeError("DLPack data type (code %d, %d bits, %d lanes) has "
                        "no tile element type" % (tensor.dtype.code,
                                                  tensor.dtype.bits,
                                                  tensor.dtype.lanes))
    element = _DL_CODES[key]
    ndim = tensor.ndim
    shape = [tensor.shape[i] for i in range(ndim)]
    if tensor.strides:
        strides = [tensor.strides[i] for i in range(ndim)]
    else:  # compact row-major
        strides, step = [0] * ndim, 1
        for i in reversed(range(ndim)):
            strides[i], step = step, step * max(shape[i], 1)
    size = ELEMENT_SIZES[element]
    pointer = (tensor.data or 0) + tensor.byte_offset
    kind = tensor.device.device_type
    if kind in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        return _View(pointer, tuple(shape), tuple(strides), element,
                     tensor.device.device_id, (value, capsule))
    if kind in (_KDL_CPU, _KDL_CUDA_HOST):
        # A host array: copied like NumPy's (numpy.from_dlpack).
        return _View(pointer, tuple(shape), tuple(strides), element, -1,
                     (value, capsule), host_array=("dlpack", size))
    raise TypeError("DLPack device type %d is not a CUDA or host device"
                    % kind)


def view_of(value):
    """The _View of a memref argument value, or TypeError."""
    module = type(value).__module__
    if module.startswith("torch"):
        view = _torch_view(value)
        if view is not None:
            return view
    if module.startswith("numpy") and hasattr(value, "dtype"):
        return _numpy_view(value)
    if hasattr(value, "__dlpack__"):
        return _dlpack_view(value)
    raise TypeError("%s is not an array: pass a torch tensor, a NumPy array "
                    "or an object with __dlpack__" % type(value).__name__)


def check_view(view, arg, function, index):
    """Checks a view against the signature's memref argument."""
    def what():
        return "%s: argument #%d (%s)" % (function, index, arg["name"])

    if not _same_element(arg["element"], view.element):
        raise TypeError("%s must hold %s elements, got %s"
                        % (what(), arg["element"], view.element))
    shape = arg["shape"]
    if len(view.shape) != len(shape):
        raise TypeError("%s must have rank %d, got %d"
                        % (what(), len(shape), len(view.shape)))
    for dim, want in enumerate(shape):
        if want is not None and want != view.shape[dim]:
            raise ValueError("%s dimension %d must be %d, got %d"
                             % (what(), dim, want, view.shape[dim]))
    if view.device > 0:
        raise ValueError("%s is on cuda:%d: the tile runtime launches on the "
                         "default device, cuda:0" % (what(), view.device))


def check_dims(views, memref_args, function):
    """Checks the sizes the signature names (`tile.shape`): a size named
    twice must be the same, a number must be that number, "ceil(K/128)" the
    named size divided and rounded up ("2*ceil(K/4)": twice that). The compiled host code checks the
    same, but only after host arrays were copied."""
    seen = {}
    derived = []
    for (index, arg), view in zip(memref_args, views):
        dims = arg.get("dims")
        if not dims:
            continue
        bounds = arg.get("bounds")
        for dim, name in enumerate(dims):
            size = view.shape[dim]
            if bounds and bounds[dim] is not None and size > bounds[dim]:
                raise ValueError(
                    "%s: argument #%d (%s) dimension %d ('%s') must be at "
                    "most %d, got %d" % (function, index, arg["name"], dim,
                                         name, bounds[dim], size))
            if name == "?":
                continue
            if ("ceil(" in name and name.endswith(")")) or "*" in name:
                derived.append((name, size, index, arg["name"], dim))
                continue
            first = seen.get(name)
            if first is None:
                if name.isdigit() and size != int(name):
                    raise ValueError(
                        "%s: argument #%d (%s) dimension %d must be %s, got %d"
                        % (function, index, arg["name"], dim, name, size))
                seen[name] = (size, index, arg["name"], dim)
            elif first[0] != size:
                raise ValueError(
                    "%s: argument #%d (%s) dimension %d ('%s') is %d, but "
                    "argument #%d (%s) dimension %d is %d"
                    % (function, index, arg["name"], dim, name, size,
                       first[1], first[2], first[3], first[0]))
    for name, size, index, arg_name, dim in derived:
        factor, _, quotient = name.rpartition("*")
        quotient = quotient.strip()
        if quotient.startswith("ceil(") and quotient.endswith(")"):
            symbol, _, divisor = quotient[len("ceil("):-1].partition("/")
        else:  # FACTOR*NAME
            symbol, divisor = quotient, "1"
        first = seen.get(symbol.strip())
        if (first is None or not divisor.strip().isdigit() or
                not (factor.strip() or "1").isdigit()):
            continue  # the compiled host code reports it
        want = int(factor.strip() or "1") * -(-first[0] // int(divisor))
        if size != want:
            raise ValueError(
                "%s: argument #%d (%s) dimension %d must be %s = %d, got %d"
                % (function, index, arg_name, dim, name, want, size))


def descriptor_of(pointer, shape, strides):
    """The memref descriptor of a view (the offset is 0: `pointer` is the
    view's first element)."""
    rank = len(shape)
    desc = descriptor_type(rank)
    if rank == 0:
        return desc(pointer, pointer, 0)
    sizes = ctypes.c_int64 * rank
    return desc(pointer, pointer, 0, sizes(*shape), sizes(*strides))


def scalar_of(value, arg, function, index):
    ctype = SCALAR_TYPES.get(arg["type"])
    if ctype is None:
        raise TypeError("%s: argument #%d (%s) has type %s, which Python "
                        "cannot pass" % (function, index, arg["name"],
                                         arg["type"]))
    if hasattr(value, "item"):
        value = value.item()
    if arg["type"] in ("f16", "bf16", "f32", "f64"):
        if not isinstance(value, (int, float)):
            raise TypeError("%s: argument #%d (%s) must be a number, got %s"
                            % (function, index, arg["name"],
                               type(value).__name__))
        if arg["type"] in ("f16", "bf16"):
            return ctype(_bits(float(value), arg["type"]))
        return ctype(float(value))
    if isinstance(value, bool) and arg["type"] != "i1":
        value = int(value)
    if not isinstance(value, int):
        raise TypeError("%s: argument #%d (%s) must be an integer, got %s"
                        % (function, index, arg["name"],
                           type(value).__name__))
    return ctype(value)
