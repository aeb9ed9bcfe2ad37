"""Arrays, element types, streams and allocation for the onepass package.

Every public call goes through here in the same order:
  1. `view(x, name)` describes each array argument (framework, address, shape, element
     type, device) without touching its data, or raises TypeError for anything that is not
     a CUDA array;
  2. the call checks types, sizes and arguments (TypeError / ValueError naming them);
  3. `Call(...)` checks that a GPU exists (RuntimeError otherwise), resolves the stream and
     allocates results and scratch through the input's framework on that stream;
  4. the extension enqueues the kernels.
Nothing is enqueued or allocated before step 3, so a bad argument leaves no trace.
"""

from __future__ import annotations

import struct
import sys

# Element types, numbered as python/src/api.h numbers them.
DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "bfloat16", "float32", "float64")
CODE = {name: code for code, name in enumerate(DTYPES)}
ITEMSIZE = {"bool": 1, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4,
            "int64": 8, "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}
INTEGER = frozenset(("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"))
FLOAT = frozenset(("float16", "bfloat16", "float32", "float64"))
SIX = ("int32", "uint32", "int64", "uint64", "float32", "float64")

# __cuda_array_interface__ type strings.
_TYPESTR = {"|b1": "bool", "|i1": "int8", "|u1": "uint8", "<i2": "int16", "<u2": "uint16",
            "<i4": "int32", "<u4": "uint32", "<i8": "int64", "<u8": "uint64", "<f2": "float16",
            "<f4": "float32", "<f8": "float64"}
_PACK = {"bool": "<?", "int8": "<b", "uint8": "<B", "int16": "<h", "uint16": "<H", "int32": "<i",
         "uint32": "<I", "int64": "<q", "uint64": "<Q", "float16": "<e", "float32": "<f",
         "float64": "<d"}

_torch_dtypes = None  # torch.dtype -> name, built on first use


def _torch_names(torch):
    global _torch_dtypes
    if _torch_dtypes is None:
        _torch_dtypes = {getattr(torch, n): n for n in DTYPES if hasattr(torch, n)}
    return _torch_dtypes


class View:
    """What onepass needs to know of one array argument; holds a reference to the array."""

    __slots__ = ("obj", "fw", "ptr", "shape", "size", "dtype", "device")

    def __init__(self, obj, fw, ptr, shape, size, dtype, device):
        self.obj, self.fw, self.ptr, self.shape, self.size = obj, fw, ptr, shape, size
        self.dtype, self.device = dtype, device

    @property
    def itemsize(self):
        return ITEMSIZE[self.dtype]


def _type_name(x):
    t = type(x)
    return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__


def _contiguous_error(name):
    return ValueError(f"onepass: argument '{name}' is not contiguous; onepass reads and writes "
                      f"dense row-major arrays (call .contiguous() / cupy.ascontiguousarray first)")


def view(x, name):
    """Describe the CUDA array x (argument `name`); TypeError if it is not one."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        if not x.is_cuda:
            raise TypeError(f"onepass: argument '{name}' is a tensor on {x.device}; onepass needs a CUDA tensor "
                            f"(move it with .cuda())")
        dt = (_torch_dtypes or _torch_names(torch)).get(x.dtype)
        if dt is None:
            raise TypeError(f"onepass: argument '{name}' has dtype {x.dtype}, which onepass does not take")
        if not x.is_contiguous():
            raise _contiguous_error(name)
        # get_device() and the shape as the torch.Size it is: no torch.device object built.
        return View(x, "torch", x.data_ptr(), x.shape, x.numel(), dt, x.get_device())
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(x, cupy.ndarray):
        dt = x.dtype.name
        if dt not in CODE:
            raise TypeError(f"onepass: argument '{name}' has dtype {dt}, which onepass does not take")
        if not x.flags.c_contiguous:
            raise _contiguous_error(name)
        return View(x, "cupy", x.data.ptr, x.shape, x.size, dt, x.device.id)
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        return _view_cai(x, cai, name)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        dev_type, _ = x.__dlpack_device__()
        if dev_type in (2, 13):  # kDLCUDA, kDLCUDAManaged: borrow it through a framework
            fw = _framework_module()
            return view(fw.from_dlpack(x), name)
        where = "in host memory" if dev_type in (1, 3) else "not in GPU memory"
        raise TypeError(f"onepass: argument '{name}' ({_type_name(x)}) is {where} (DLPack device type {dev_type}); "
                        f"onepass needs a CUDA array")
    if hasattr(x, "__array_interface__") or hasattr(x, "__array__"):
        raise TypeError(f"onepass: argument '{name}' ({_type_name(x)}) is in host memory; onepass needs a CUDA "
                        f"array (torch.Tensor on a CUDA device, cupy.ndarray, or any object with "
                        f"__cuda_array_interface__ or __dlpack__)")
    raise TypeError(f"onepass: argument '{name}' ({_type_name(x)}) is not an array; onepass needs a CUDA array "
                    f"(torch.Tensor on a CUDA device, cupy.ndarray, or any object with __cuda_array_interface__ "
                    f"or __dlpack__)")


def _view_cai(x, cai, name):
    shape = tuple(cai["shape"])
    dt = _TYPESTR.get(cai["typestr"])
    if dt is None:
        raise TypeError(f"onepass: argument '{name}' has type string {cai['typestr']!r}, which onepass does not "
                        f"take")
    size = 1
    for s in shape:
        size *= s
    strides = cai.get("strides")
    if strides is not None and size > 1:
        expect = ITEMSIZE[dt]
        for extent, stride in zip(reversed(shape), reversed(tuple(strides))):
            if extent > 1 and stride != expect:
                raise _contiguous_error(name)
            expect *= extent
    ptr = cai["data"][0] or 0
    return View(x, None, ptr, shape, size, dt, None)


def _framework_module():
    """The framework that allocates for arrays of other libraries: torch, else cupy."""
    for name in ("torch", "cupy"):
        mod = sys.modules.get(name)
        if mod is None:
            try:
                mod = __import__(name)
            except ImportError:
                continue
        return mod
    raise RuntimeError("onepass: arrays that are neither torch tensors nor cupy arrays need torch or cupy "
                       "installed, to allocate the results")


def writable(v, name):
    cai = getattr(v.obj, "__cuda_array_interface__", None) if v.fw is None else None
    if cai is not None and cai["data"][1]:
        raise ValueError(f"onepass: argument '{name}' is read-only")


def dtype_name(d, name):
    """The element type name of a dtype given as a string, torch dtype or numpy/cupy dtype."""
    if isinstance(d, str):
        s = d
    elif isinstance(getattr(d, "name", None), str):  # numpy / cupy dtype
        s = d.name
    elif isinstance(d, type):  # numpy scalar type (numpy.int32)
        s = d.__name__
    else:  # torch.int32 and the like
        s = str(d).rsplit(".", 1)[-1]
    if s not in CODE:
        raise TypeError(f"onepass: argument '{name}' is {d!r}, not an element type onepass knows")
    return s


def check_dtype(v, name, allowed, what):
    if v.dtype not in allowed:
        raise TypeError(f"onepass: argument '{name}' has dtype {v.dtype}; {what} takes "
                        f"{', '.join(sorted(allowed, key=CODE.get))}")


def same_device(views_names):
    first = None
    for v, name in views_names:
        if v is None:
            continue
        if first is None:
            first = (v, name)
        elif v.device is not None and first[0].device is not None and v.device != first[0].device:
            raise TypeError(f"onepass: argument '{name}' is on GPU {v.device} and '{first[1]}' on GPU "
                            f"{first[0].device}; all arrays of a call must be on one GPU")


def pack(value, dtype, name):
    """The 8-byte pattern of a scalar of `dtype` (an exact value, else ValueError)."""
    if isinstance(value, bool) and dtype != "bool":
        value = int(value)
    if dtype in INTEGER:
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError(f"onepass: argument '{name}' is {value}, not a {dtype} value")
            value = int(value)
        try:
            value = int(value)
        except (TypeError, ValueError):
            raise TypeError(f"onepass: argument '{name}' is {value!r}, not a number") from None
        bits = ITEMSIZE[dtype] * 8
        lo, hi = (0, 2 ** bits - 1) if dtype.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        if not lo <= value <= hi:
            raise ValueError(f"onepass: argument '{name}' is {value}, outside the range of {dtype}")
    else:
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"onepass: argument '{name}' is {value!r}, not a number") from None
    if dtype == "bfloat16":
        b = struct.pack("<f", value)
        return int.from_bytes(b[2:4], "little")
    return int.from_bytes(struct.pack(_PACK[dtype], value), "little")


def identity(op, dtype):
    """The identity of op ("sum", "max", "min") on dtype, as a Python number."""
    if op == "sum":
        return 0
    if dtype in FLOAT:
        return float("-inf") if op == "max" else float("inf")
    bits = ITEMSIZE[dtype] * 8
    if dtype.startswith("u"):
        return 0 if op == "max" else 2 ** bits - 1
    return -(2 ** (bits - 1)) if op == "max" else 2 ** (bits - 1) - 1


OPS = {"sum": 0, "max": 1, "min": 2}


def op_code(op, name="op"):
    code = OPS.get(op) if isinstance(op, str) else None
    if code is None:
        raise ValueError(f"onepass: argument '{name}' is {op!r}; it must be 'sum', 'max' or 'min'")
    return code


DETERMINISM = {False: 0, "run_to_run": 1, "gpu_to_gpu": 2, True: 2}


def determinism_code(deterministic, v, name="deterministic"):
    """onepass::determinism's code for a call's `deterministic=`: False (the fastest
    path), True or 'gpu_to_gpu' (the same bits on every GPU), 'run_to_run'; None follows
    torch.use_deterministic_algorithms for torch tensors (gpu_to_gpu when it is on)."""
    if deterministic is None:
        torch = sys.modules.get("torch") if v.fw == "torch" else None
        return 2 if torch is not None and torch.are_deterministic_algorithms_enabled() else 0
    if isinstance(deterministic, (bool, str)) and deterministic in DETERMINISM:
        return DETERMINISM[deterministic]
    raise ValueError(f"onepass: argument '{name}' is {deterministic!r}; it must be None, False, True, "
                     "'run_to_run' or 'gpu_to_gpu'")


def count_arg(n, name):
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            n = int(n.__index__())
        except (AttributeError, TypeError):
            raise TypeError(f"onepass: argument '{name}' is {n!r}, not an integer") from None
    return n


# --- the GPU, streams and allocation ------------------------------------------------

_ext = None


def ext():
    """The compiled extension, after checking that a GPU is there (RuntimeError if not)."""
    global _ext
    if _ext is None:
        from . import _onepass
        _onepass.device_count()  # raises RuntimeError naming the reason when there is no GPU
        _ext = _onepass
    return _ext


def stream_handle(stream, name="stream"):
    """A cudaStream_t (as int) from an int, a torch / cupy stream or a __cuda_stream__ object."""
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        got = proto() if callable(proto) else proto
        return int(got[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return h
    raise TypeError(f"onepass: argument '{name}' is {_type_name(stream)}; pass an int handle, a torch.cuda.Stream, "
                    f"a cupy.cuda.Stream or an object with __cuda_stream__")


# Scratch of small calls, kept per (framework, device, stream) and reused by the next call
# on the same stream: calls on one stream run one after another, so they never use it at
# once, and no two streams share one. Never used while the stream is being captured into a
# CUDA graph (a graph's scratch comes from its own allocation, which the graph keeps).
_SCRATCH_CACHE_MAX_BYTES = 1 << 20
_SCRATCH_CACHE_MAX_STREAMS = 16
_scratch_cache = {}

_torch_raw_stream = None  # torch._C._cuda_getCurrentRawStream, where torch has it


def _torch_current_stream(torch, device):
    global _torch_raw_stream
    if _torch_raw_stream is None:
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _torch_raw_stream = raw if raw is not None else (lambda d: torch.cuda.current_stream(d).cuda_stream)
    return _torch_raw_stream(device)


class _StreamHandle:
    """A raw stream handle as the CUDA stream protocol offers it (cupy.cuda.Stream.from_external)."""

    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class Call:
    """One call's device, stream and allocator, taken from its first array argument."""

    __slots__ = ("fw", "mod", "device", "stream", "_ctx", "_dev")

    def __init__(self, v, stream=None):
        self.fw = v.fw
        if self.fw is None:  # another library's array: torch or cupy allocates
            self.mod = _framework_module()
            self.fw = self.mod.__name__
        else:
            self.mod = sys.modules[self.fw]
        self._ctx = None
        if self.fw == "torch":
            torch = self.mod
            self.device = v.device if v.device is not None else torch.cuda.current_device()
            current = _torch_current_stream(torch, self.device)
        else:
            cupy = self.mod
            self.device = v.device if v.device is not None else cupy.cuda.runtime.getDevice()
            current = cupy.cuda.get_current_stream(self.device).ptr
        if stream is None:
            self.stream = current
        else:
            self.stream = stream_handle(stream)
            if self.stream != current:  # allocate on that stream, never on another
                if self.fw == "torch":
                    self._ctx = self.mod.cuda.stream(self.mod.cuda.ExternalStream(self.stream, device=self.device))
                else:
                    from_external = getattr(self.mod.cuda.Stream, "from_external", None)
                    self._ctx = (from_external(_StreamHandle(self.stream)) if from_external is not None
                                 else self.mod.cuda.ExternalStream(self.stream, self.device))

    def __enter__(self):
        if self._ctx is not None:
            self._ctx.__enter__()
        if self.fw == "cupy":
            self._dev = self.mod.cuda.Device(self.device)
            self._dev.__enter__()
        return self

    def __exit__(self, *exc):
        if self.fw == "cupy":
            self._dev.__exit__(*exc)
        if self._ctx is not None:
            self._ctx.__exit__(*exc)
        return False

    def empty(self, shape, dtype):
        if self.fw == "torch":
            torch = self.mod
            return torch.empty(shape, dtype=getattr(torch, dtype), device=self.device)
        if dtype == "bfloat16":
            raise TypeError("onepass: cupy has no bfloat16 arrays")
        return self.mod.empty(shape, dtype=dtype)

    def scratch(self, nbytes):
        """(address, bytes, holder) of nbytes of scratch; holder keeps it alive."""
        if nbytes == 0:
            return 0, 0, None
        if nbytes <= _SCRATCH_CACHE_MAX_BYTES and not _ext.stream_is_capturing(self.stream):
            key = (self.fw, self.device, self.stream)
            buf = _scratch_cache.get(key)
            if buf is None:
                if len(_scratch_cache) >= _SCRATCH_CACHE_MAX_STREAMS:
                    _scratch_cache.clear()  # each buffer goes back to its own stream's pool
                buf = self.empty((_SCRATCH_CACHE_MAX_BYTES,), "uint8")
                _scratch_cache[key] = buf
            return self.ptr(buf), nbytes, buf
        buf = self.empty((nbytes,), "uint8")
        return self.ptr(buf), nbytes, buf

    def arange(self, n):
        if self.fw == "torch":
            return self.mod.arange(n, dtype=self.mod.int64, device=self.device)
        return self.mod.arange(n, dtype="int64")

    @staticmethod
    def ptr(a):
        return a.data_ptr() if hasattr(a, "data_ptr") else a.data.ptr


__all__ = ["View", "view", "Call", "ext"]
