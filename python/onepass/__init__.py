"""onepass: single-pass GPU parallel primitives for PyTorch and CuPy arrays.

Every function takes CUDA arrays (torch.Tensor on a CUDA device, cupy.ndarray, or any
object with ``__cuda_array_interface__`` or ``__dlpack__``) and returns arrays of the
input's framework, allocated through that framework's allocator (arrays of other
libraries get torch tensors, or cupy arrays where torch is not installed). Inputs are
read in place: nothing is copied beyond what the algorithm moves. Arrays must be
contiguous (row-major); a multi-dimensional array is taken as its flattened items, and
results keep its shape where they have one item per input item.

Streams: a call runs on the framework's current stream, or on ``stream=`` (an int
handle, a torch or cupy stream, or an object with ``__cuda_stream__``); results and
scratch are allocated on that stream. Calls do not wait for the GPU, except those
documented as synchronising (``trim=True``, ``masked_select``, ``unique_consecutive``,
``bincount`` without ``length``), which read a count back. The non-synchronising calls can
be captured in a CUDA graph (``torch.cuda.graph``) and replayed with new data.

Errors, raised before anything is allocated or enqueued: TypeError for a wrong dtype, a
host array or arrays on different GPUs; ValueError for bad sizes, shapes or arguments,
naming the argument; RuntimeError where no GPU is available (importing works anyway).

Determinism: integer results are exact; float sums from ``reduce`` are the same bits
every run on one GPU; float scans carry no run-to-run promise.
"""

from __future__ import annotations

from . import _interop as _io
from ._interop import CODE as _CODE, FLOAT as _FLOAT, INTEGER as _INTEGER, SIX as _SIX

__version__ = "0.1.0"

__all__ = [
    "inclusive_scan", "exclusive_scan", "cumsum",
    "segmented_inclusive_scan", "segmented_exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key",
    "reduce", "sum", "max", "min",
    "histogram_even", "histogram_range", "bincount",
    "select_flagged", "masked_select", "select_if", "unique", "unique_consecutive", "partition",
    "sort", "argsort", "rms_norm",
]

_SEGMENTED = ("int32", "int64", "float32", "float64")
_SAMPLES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "float32")
_FLAGS = ("bool", "uint8", "int8")
_CMP = {">": 0, "gt": 0, ">=": 1, "ge": 1, "<": 2, "lt": 2, "<=": 3, "le": 3, "==": 4, "eq": 4, "!=": 5, "ne": 5}


# --- helpers -----------------------------------------------------------------------

def _out(call, out, shape, dtype, size, name="out"):
    """(result array, its address): `out` (checked by _check_out already) or a new array."""
    if out is None:
        res = call.empty(shape, dtype)
        return res, _ptr(res)
    v = _io.view(out, name)
    if v.device is not None and v.device != call.device:
        raise TypeError(f"onepass: argument '{name}' is on GPU {v.device}, the input on GPU {call.device}")
    return out, v.ptr


def _check_out(out, dtype, size, name="out"):
    """Check `out` before anything is allocated (the same checks _out makes)."""
    if out is None:
        return None
    v = _io.view(out, name)
    if v.dtype != dtype:
        raise TypeError(f"onepass: argument '{name}' has dtype {v.dtype}; this call writes {dtype}")
    if v.size != size:
        raise ValueError(f"onepass: argument '{name}' has {v.size} items; this call writes {size}")
    _io.writable(v, name)
    return v


def _same_size(a, an, b, bn):
    if a.size != b.size:
        raise ValueError(f"onepass: arguments '{an}' and '{bn}' have {a.size} and {b.size} items; they must match")


def _ptr(a):
    return _io.Call.ptr(a)


# --- scans ---------------------------------------------------------------------------

def _scan(x, op, inclusive, initial, out, stream, deterministic):
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SIX, "scan")
    o = _io.op_code(op)
    det = _io.determinism_code(deterministic, v)
    init = 0 if inclusive else _io.pack(_io.identity(op, v.dtype) if initial is None else initial, v.dtype, "initial")
    ov = _check_out(out, v.dtype, v.size)
    if ov is not None:
        _io.same_device([(v, "x"), (ov, "out")])
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, v.shape, v.dtype, v.size)
        ws, wsb, hold = c.scratch(e.scan_workspace(code, v.size, det))
        e.scan(code, o, inclusive, v.ptr, v.size, rp, init, det, c.device, c.stream, ws, wsb)
    return res


def inclusive_scan(x, op="sum", *, out=None, stream=None, deterministic=None):
    """out[i] = x[0] op x[1] op ... op x[i] over the flattened x (op: 'sum', 'max', 'min').

    x: int32, uint32, int64, uint64, float32 or float64. Returns an array of x's shape and
    dtype (or writes `out`, which may be x itself). Sums wrap around in integers, as in C.
    deterministic: True (or 'gpu_to_gpu') combines floats in one fixed order, the same
    bits on every run and every GPU; 'run_to_run' the same; False the fastest path, whose
    last bits may vary between runs. None (the default): True for torch tensors while
    torch.use_deterministic_algorithms(True) is on, else False. Integers are exact either way.
    """
    return _scan(x, op, True, None, out, stream, deterministic)


def exclusive_scan(x, op="sum", *, initial=None, out=None, stream=None, deterministic=None):
    """out[i] = initial op x[0] op ... op x[i-1]; out[0] = initial.

    initial: a value of x's dtype; by default op's identity (0 for sum, the lowest value
    for max, the highest for min). Otherwise as inclusive_scan.
    """
    return _scan(x, op, False, initial, out, stream, deterministic)


def cumsum(x, *, out=None, stream=None, deterministic=None):
    """The inclusive prefix sum of the flattened x (torch.cumsum / cupy.cumsum with the
    array flattened, and without their dtype promotion: int32 sums stay int32).
    deterministic: as inclusive_scan (by default it follows torch.use_deterministic_algorithms)."""
    return _scan(x, "sum", True, None, out, stream, deterministic)


def _segmented(x, inclusive, offsets, head_flags, begin, end, op, initial, copy_gaps, out, stream, deterministic):
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SEGMENTED, "the segmented scan")
    o = _io.op_code(op)
    det = _io.determinism_code(deterministic, v)
    init = 0 if inclusive else _io.pack(_io.identity(op, v.dtype) if initial is None else initial, v.dtype, "initial")
    forms = [f for f, a in (("offsets", offsets), ("head_flags", head_flags), ("begin", begin)) if a is not None]
    if end is not None and begin is None:
        raise ValueError("onepass: argument 'end' needs 'begin' (segments [begin[s], end[s]))")
    if len(forms) != 1:
        raise ValueError("onepass: give exactly one of 'offsets' (CSR, count + 1 boundaries), 'head_flags', or "
                         "'begin' and 'end'" + (f"; got {', '.join(forms)}" if forms else ""))
    ov = _check_out(out, v.dtype, v.size)
    arrays = [(v, "x"), (ov, "out")]
    if head_flags is not None:
        fv = _io.view(head_flags, "head_flags")
        _io.check_dtype(fv, "head_flags", _FLAGS, "head_flags")
        _same_size(v, "x", fv, "head_flags")
        arrays.append((fv, "head_flags"))
    else:
        if offsets is not None:
            bv = _io.view(offsets, "offsets")
            _io.check_dtype(bv, "offsets", ("int32", "int64"), "offsets")
            if bv.size < 1:
                raise ValueError("onepass: argument 'offsets' is empty; it holds count + 1 boundaries (at least 1)")
            count, ev = bv.size - 1, None
            arrays.append((bv, "offsets"))
        else:
            if end is None:
                raise ValueError("onepass: argument 'begin' needs 'end' (segments [begin[s], end[s]))")
            bv, ev = _io.view(begin, "begin"), _io.view(end, "end")
            _io.check_dtype(bv, "begin", ("int32", "int64"), "begin")
            if ev.dtype != bv.dtype:
                raise TypeError(f"onepass: arguments 'begin' and 'end' have dtypes {bv.dtype} and {ev.dtype}; they "
                                f"must match")
            _same_size(bv, "begin", ev, "end")
            count = bv.size
            arrays += [(bv, "begin"), (ev, "end")]
    _io.same_device(arrays)
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, v.shape, v.dtype, v.size)
        if head_flags is not None:
            ws, wsb, hold = c.scratch(e.segmented_scan_workspace(code, v.size, det))
            e.segmented_scan_flags(code, o, inclusive, v.ptr, fv.ptr, v.size, rp, init, det, c.device, c.stream,
                                   ws, wsb)
        else:
            ob = bv.itemsize
            eptr = ev.ptr if ev is not None else bv.ptr + ob
            ws, wsb, hold = c.scratch(e.segmented_scan_offsets_workspace(code, ob, v.size, det))
            e.segmented_scan_offsets(code, o, inclusive, v.ptr, v.size, ob, bv.ptr, eptr, count, copy_gaps,
                                     rp, init, det, c.device, c.stream, ws, wsb)
    return res


def segmented_inclusive_scan(x, *, offsets=None, head_flags=None, begin=None, end=None, op="sum", copy_gaps=True,
                             out=None, stream=None, deterministic=None):
    """An inclusive scan that restarts at every segment.

    Segments, one form: ``offsets`` (CSR: count + 1 int32/int64 boundaries, segment s is
    x[offsets[s]:offsets[s+1]]), ``begin`` and ``end`` (segment s is x[begin[s]:end[s]]),
    or ``head_flags`` (bool/uint8/int8, one per item, nonzero starts a segment). Offsets
    segments are in order, may be empty and may leave gaps: items in no segment are
    copied from x (``copy_gaps=True``) or left as they are in ``out``. Bad offsets are not
    reported: the result is then undefined (nothing outside ``out`` is written).
    x: int32, int64, float32, float64; op: 'sum', 'max', 'min'. deterministic: as
    inclusive_scan (floats combined in one fixed order: the same bits on every run and
    GPU; by default it follows torch.use_deterministic_algorithms).
    """
    return _segmented(x, True, offsets, head_flags, begin, end, op, None, copy_gaps, out, stream, deterministic)


def segmented_exclusive_scan(x, *, offsets=None, head_flags=None, begin=None, end=None, op="sum", initial=None,
                             copy_gaps=True, out=None, stream=None, deterministic=None):
    """An exclusive scan that restarts at every segment (each segment's first item gets
    ``initial``, by default op's identity). Segments and deterministic as in
    segmented_inclusive_scan."""
    return _segmented(x, False, offsets, head_flags, begin, end, op, initial, copy_gaps, out, stream, deterministic)


def _by_key(keys, x, op, inclusive, initial, out, stream, deterministic):
    kv, v = _io.view(keys, "keys"), _io.view(x, "x")
    _io.check_dtype(v, "x", _SEGMENTED, "the scan by key")
    if kv.dtype not in _INTEGER or kv.itemsize not in (4, 8):
        raise TypeError(f"onepass: argument 'keys' has dtype {kv.dtype}; scans by key take int32, uint32, int64 "
                        f"or uint64 keys")
    _same_size(kv, "keys", v, "x")
    o = _io.op_code(op)
    det = _io.determinism_code(deterministic, v)
    init = 0 if inclusive else _io.pack(_io.identity(op, v.dtype) if initial is None else initial, v.dtype, "initial")
    ov = _check_out(out, v.dtype, v.size)
    _io.same_device([(v, "x"), (kv, "keys"), (ov, "out")])
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, v.shape, v.dtype, v.size)
        ws, wsb, hold = c.scratch(e.segmented_scan_workspace(code, v.size, det))
        e.scan_by_key(code, o, inclusive, kv.itemsize, kv.ptr, v.ptr, v.size, rp, init, det, c.device, c.stream,
                      ws, wsb)
    return res


def inclusive_scan_by_key(keys, x, op="sum", *, out=None, stream=None, deterministic=None):
    """An inclusive scan of x that restarts wherever keys[i] != keys[i-1] (each run of
    equal consecutive keys is a segment). keys: 4- or 8-byte integers; x and deterministic
    as segmented scans."""
    return _by_key(keys, x, op, True, None, out, stream, deterministic)


def exclusive_scan_by_key(keys, x, op="sum", *, initial=None, out=None, stream=None, deterministic=None):
    """The exclusive form of inclusive_scan_by_key (each run's first item gets ``initial``)."""
    return _by_key(keys, x, op, False, initial, out, stream, deterministic)


# --- reduce --------------------------------------------------------------------------

def reduce(x, op="sum", *, initial=None, out=None, stream=None, deterministic=None):
    """initial op x[0] op ... op x[n-1] as a 0-d array of x's dtype, on the device.

    initial: by default op's identity, which is also the result for an empty x. Float
    sums are the same bits every run on one GPU; deterministic=True (or 'gpu_to_gpu') gives
    the same bits on every GPU too (None follows torch.use_deterministic_algorithms for
    torch tensors, as the scans). ``out``: a one-item array to write.
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SIX, "reduce")
    o = _io.op_code(op)
    det = _io.determinism_code(deterministic, v)
    init = _io.pack(_io.identity(op, v.dtype) if initial is None else initial, v.dtype, "initial")
    ov = _check_out(out, v.dtype, 1)
    _io.same_device([(v, "x"), (ov, "out")])
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, (), v.dtype, 1)
        ws, wsb, hold = c.scratch(e.reduce_workspace(code, v.size, det))
        e.reduce(code, o, v.ptr, v.size, rp, init, det, c.device, c.stream, ws, wsb)
    return res


def sum(x, *, out=None, stream=None, deterministic=None):  # noqa: A001 - the framework's name
    """The sum of x's items as a 0-d device array (no dtype promotion); deterministic: as reduce."""
    return reduce(x, "sum", out=out, stream=stream, deterministic=deterministic)


def max(x, *, out=None, stream=None):  # noqa: A001
    """The largest item of x as a 0-d device array (the dtype's lowest value if x is empty)."""
    return reduce(x, "max", out=out, stream=stream)


def min(x, *, out=None, stream=None):  # noqa: A001
    """The smallest item of x as a 0-d device array (the dtype's highest value if x is empty)."""
    return reduce(x, "min", out=out, stream=stream)


# --- histogram -----------------------------------------------------------------------

def _counts_dtype(dtype):
    d = _io.dtype_name(dtype, "dtype")
    if d not in ("int32", "int64"):
        raise TypeError(f"onepass: argument 'dtype' is {d}; counts are int32 or int64")
    return d


def _level(value, sample, name):
    if sample in _FLOAT:
        try:
            f = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"onepass: argument '{name}' is {value!r}, not a number") from None
        return 0, f
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"onepass: argument '{name}' is {value}; integer samples take integer levels")
        value = int(value)
    value = _io.count_arg(value, name)
    if not -(2 ** 63) <= value < 2 ** 63:
        raise ValueError(f"onepass: argument '{name}' is {value}, outside the 64-bit range")
    return value, 0.0


def histogram_even(x, bins, lower, upper, *, dtype="int64", out=None, stream=None):
    """counts[b] = the number of items of x in bin b of ``bins`` equal bins over [lower, upper).

    x: int8, uint8, int16, uint16, int32, uint32 or float32. Items outside [lower, upper)
    and NaN are not counted. Integer samples are binned in exact integer arithmetic.
    dtype: of the counts, int32 or int64 (torch.bincount's). Returns ``bins`` counts.
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SAMPLES, "histogram_even")
    bins = _io.count_arg(bins, "bins")
    if not 1 <= bins < 2 ** 31:
        raise ValueError(f"onepass: argument 'bins' is {bins}; at least 1 bin (and fewer than 2^31)")
    li, lf = _level(lower, v.dtype, "lower")
    ui, uf = _level(upper, v.dtype, "upper")
    if not ((lf < uf) if v.dtype in _FLOAT else (li < ui)):
        raise ValueError(f"onepass: argument 'upper' ({upper}) must be greater than 'lower' ({lower})")
    cd = _counts_dtype(dtype)
    if cd == "int32" and v.size > 2 ** 31 - 1:
        raise ValueError(f"onepass: argument 'dtype' is int32, which cannot count {v.size} items; use int64")
    ov = _check_out(out, cd, bins)
    _io.same_device([(v, "x"), (ov, "out")])
    e = _io.ext()
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, (bins,), cd, bins)
        e.histogram_even(_CODE[v.dtype], cd == "int64", v.ptr, v.size, bins, li, ui, lf, uf, rp, c.device,
                         c.stream)
    return res


def histogram_range(x, edges, *, dtype="int64", out=None, stream=None):
    """counts[i] = the number of items s of x with edges[i] <= s < edges[i + 1].

    edges: a host sequence (list, tuple, numpy array, CPU tensor) of at least 2 strictly
    increasing levels; read during the call, so it may change afterwards. Items outside
    [edges[0], edges[-1]) and NaN are not counted. Returns len(edges) - 1 counts.
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SAMPLES, "histogram_range")
    if hasattr(edges, "__cuda_array_interface__") or (hasattr(edges, "is_cuda") and edges.is_cuda):
        raise TypeError("onepass: argument 'edges' is in GPU memory; histogram_range takes host edges (a list, "
                        "tuple, numpy array or CPU tensor), so that the call needs no synchronisation")
    try:
        levels = [float(e) for e in (edges.tolist() if hasattr(edges, "tolist") else edges)]
    except (TypeError, ValueError):
        raise TypeError(f"onepass: argument 'edges' ({type(edges).__name__}) is not a sequence of numbers") from None
    if len(levels) < 2:
        raise ValueError(f"onepass: argument 'edges' has {len(levels)} levels; at least 2 are needed")
    if v.dtype not in _FLOAT:
        if any(not f.is_integer() for f in levels):
            raise ValueError("onepass: argument 'edges' holds non-integer levels; integer samples take integer levels")
        if any(abs(f) > 2 ** 53 for f in levels):
            raise ValueError("onepass: argument 'edges' holds levels beyond 2^53")
    if any(not (a < b) for a, b in zip(levels, levels[1:])):
        raise ValueError("onepass: argument 'edges' is not strictly increasing (or holds NaN)")
    bins = len(levels) - 1
    cd = _counts_dtype(dtype)
    if cd == "int32" and v.size > 2 ** 31 - 1:
        raise ValueError(f"onepass: argument 'dtype' is int32, which cannot count {v.size} items; use int64")
    ov = _check_out(out, cd, bins)
    _io.same_device([(v, "x"), (ov, "out")])
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, (bins,), cd, bins)
        ws, wsb, hold = c.scratch(e.histogram_range_workspace(code, cd == "int64", len(levels)))
        e.histogram_range(code, cd == "int64", v.ptr, v.size, levels, rp, c.device, c.stream, ws, wsb)
    return res


def bincount(x, *, length=None, minlength=0, dtype="int64", stream=None):
    """counts[k] = the number of items of x equal to k (torch.bincount without weights).

    x: non-negative integers (int8 ... uint32); negative items are not counted. With
    ``length`` the result has that many bins (items >= length are not counted) and the call
    does not synchronise; without it, the result has max(max(x) + 1, minlength) bins, which
    reads max(x) back to the host (synchronising).
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", [d for d in _SAMPLES if d in _INTEGER], "bincount")
    minlength = _io.count_arg(minlength, "minlength")
    if minlength < 0:
        raise ValueError(f"onepass: argument 'minlength' is {minlength}; it must be >= 0")
    if length is None:
        if v.size == 0:
            length = minlength
        else:
            if not hasattr(x, "max"):
                raise TypeError("onepass: bincount without 'length' needs a torch or cupy array (it reads max(x))")
            length = builtins_max(int(x.max().item()) + 1, minlength)
    length = _io.count_arg(length, "length")
    if length < 0:
        raise ValueError(f"onepass: argument 'length' is {length}; it must be >= 0")
    if length == 0:
        with _io.Call(v, stream) as c:
            return c.empty((0,), _counts_dtype(dtype))
    return histogram_even(x, length, 0, length, dtype=dtype, stream=stream)


import builtins as _builtins  # noqa: E402

builtins_max = _builtins.max


# --- compaction ----------------------------------------------------------------------

def _count_result(c):
    return c.empty((), "int64")


def _trimmed(res, count):
    k = int(count.item())
    return res[:k]


def _compaction(v, out, stream, arrays, launch):
    """The calls that write kept items and a device count (select_flagged, select_if, unique):
    checks `out`, allocates the result, the count and the scratch, runs launch(ext, call,
    out_ptr, count_ptr, ws, ws_bytes). Returns (out, count)."""
    ov = _check_out(out, v.dtype, v.size)
    _io.same_device(arrays + [(ov, "out")])
    e = _io.ext()
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, (v.size,), v.dtype, v.size)
        count = _count_result(c)
        ws, wsb, hold = c.scratch(e.select_workspace(v.itemsize, v.size))
        launch(e, c, rp, _ptr(count), ws, wsb)
    return res, count


def select_flagged(x, mask, *, trim=False, out=None, stream=None):
    """The items of x where mask is true, in order.

    mask: bool (or uint8/int8, nonzero keeps), as many items as x. Returns (out, count):
    out has x's size, its first `count` items are the kept ones; count is a 0-d int64
    device array. With trim=True returns out[:count] instead (synchronising).
    """
    v, mv = _io.view(x, "x"), _io.view(mask, "mask")
    if v.itemsize not in (1, 2, 4, 8):
        raise TypeError(f"onepass: argument 'x' has dtype {v.dtype}, which select_flagged does not move")
    _io.check_dtype(mv, "mask", _FLAGS, "mask")
    _same_size(v, "x", mv, "mask")
    res, count = _compaction(v, out, stream, [(v, "x"), (mv, "mask")],
                             lambda e, c, rp, cp, ws, wsb: e.select_flagged(v.itemsize, v.ptr, mv.ptr, v.size, rp, cp,
                                                                            c.device, c.stream, ws, wsb))
    return _trimmed(res, count) if trim else (res, count)


def masked_select(x, mask, *, stream=None):
    """x[mask] as a 1-D array (torch.masked_select without broadcasting); synchronising."""
    return select_flagged(x, mask, trim=True, stream=stream)


def _cmp_code(cmp):
    code = _CMP.get(cmp) if isinstance(cmp, str) else None
    if code is None:
        raise ValueError(f"onepass: argument 'cmp' is {cmp!r}; it must be one of >, >=, <, <=, ==, != "
                         f"(or gt, ge, lt, le, eq, ne)")
    return code


def select_if(x, cmp, value, *, trim=False, out=None, stream=None):
    """The items s of x with ``s <cmp> value`` (cmp: '>', '>=', '<', '<=', '==', '!='), in order.

    x: int32, uint32, int64, uint64, float32, float64; value: exact in x's dtype. Returns
    (out, count) as select_flagged, or out[:count] with trim=True (synchronising).
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SIX, "select_if")
    cc = _cmp_code(cmp)
    val = _io.pack(value, v.dtype, "value")
    code = _CODE[v.dtype]
    res, count = _compaction(v, out, stream, [(v, "x")],
                             lambda e, c, rp, cp, ws, wsb: e.select_if(code, cc, val, v.ptr, v.size, rp, cp, c.device,
                                                                       c.stream, ws, wsb))
    return _trimmed(res, count) if trim else (res, count)


def unique(x, *, trim=False, out=None, stream=None):
    """x without the items equal to the one before them (the first of each run of equal
    consecutive items stays; NaN equals nothing). Returns (out, count), or out[:count] with
    trim=True (synchronising). x: int32, uint32, int64, uint64, float32, float64."""
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SIX, "unique")
    code = _CODE[v.dtype]
    res, count = _compaction(v, out, stream, [(v, "x")],
                             lambda e, c, rp, cp, ws, wsb: e.unique(code, v.ptr, v.size, rp, cp, c.device, c.stream,
                                                                    ws, wsb))
    return _trimmed(res, count) if trim else (res, count)


def unique_consecutive(x, *, stream=None):
    """torch.unique_consecutive(x.flatten()) (values only); synchronising."""
    return unique(x, trim=True, stream=stream)


def partition(x, cmp, value, *, trim=False, stream=None):
    """Splits x by ``s <cmp> value``, both parts in input order (stable).

    Returns (selected, rejected, count): selected[:count] holds the items that satisfy the
    comparison, rejected[:x.size - count] the others; count is a 0-d int64 device array.
    With trim=True returns (selected[:count], rejected[:x.size - count]) (synchronising).
    """
    v = _io.view(x, "x")
    _io.check_dtype(v, "x", _SIX, "partition")
    cc = _cmp_code(cmp)
    val = _io.pack(value, v.dtype, "value")
    e = _io.ext()
    code = _CODE[v.dtype]
    with _io.Call(v, stream) as c:
        sel = c.empty((v.size,), v.dtype)
        rej = c.empty((v.size,), v.dtype)
        count = _count_result(c)
        ws, wsb, hold = c.scratch(e.select_workspace(v.itemsize, v.size))
        e.partition(code, cc, val, v.ptr, v.size, _ptr(sel), _ptr(rej), _ptr(count), c.device, c.stream, ws, wsb)
    if trim:
        k = int(count.item())
        return sel[:k], rej[:v.size - k]
    return sel, rej, count


# --- sort ----------------------------------------------------------------------------

def _bits(dtype, begin_bit, end_bit):
    width = _io.ITEMSIZE[dtype] * 8
    b = _io.count_arg(begin_bit, "begin_bit")
    e = width if end_bit is None else _io.count_arg(end_bit, "end_bit")
    if not 0 <= b <= width:
        raise ValueError(f"onepass: argument 'begin_bit' is {b}; it must be in [0, {width}] for {dtype} keys")
    if not b <= e <= width:
        raise ValueError(f"onepass: argument 'end_bit' is {e}; it must be in [begin_bit, {width}] for {dtype} keys")
    return b, e


def sort(keys, values=None, *, descending=False, begin_bit=0, end_bit=None, stream=None):
    """Stable radix sort of the flattened keys (and values along with them).

    keys: int32, uint32, int64, uint64, float32, float64 (floats in IEEE total order:
    -NaN < -inf < ... < -0 < +0 < ... < inf < NaN). values: any dtype of 4 or 8 bytes, as
    many items as keys. begin_bit, end_bit: compare only bits [begin_bit, end_bit) of the
    keys' ordered bit patterns. Returns the sorted keys (1-D), or (keys, values).
    """
    kv = _io.view(keys, "keys")
    _io.check_dtype(kv, "keys", _SIX, "sort")
    b, e_bit = _bits(kv.dtype, begin_bit, end_bit)
    vv = None
    if values is not None:
        vv = _io.view(values, "values")
        if vv.itemsize not in (4, 8):
            raise TypeError(f"onepass: argument 'values' has dtype {vv.dtype}; sort moves values of 4 or 8 bytes")
        _same_size(kv, "keys", vv, "values")
        _io.same_device([(kv, "keys"), (vv, "values")])
    e = _io.ext()
    code = _CODE[kv.dtype]
    vb = vv.itemsize if vv is not None else 0
    with _io.Call(kv, stream) as c:
        ko = c.empty((kv.size,), kv.dtype)
        vo = c.empty((kv.size,), vv.dtype) if vv is not None else None
        ws, wsb, hold = c.scratch(e.sort_workspace(code, vb, kv.size))
        e.sort(code, vb, kv.ptr, _ptr(ko), vv.ptr if vv else 0, _ptr(vo) if vo is not None else 0, kv.size,
               bool(descending), b, e_bit, c.device, c.stream, ws, wsb)
    return ko if vv is None else (ko, vo)


def argsort(keys, *, descending=False, begin_bit=0, end_bit=None, stream=None):
    """The int64 indices that sort the flattened keys, stably (keys[result] is sorted).

    As sort (the same key types and bit range); keys are left unchanged.
    """
    kv = _io.view(keys, "keys")
    _io.check_dtype(kv, "keys", _SIX, "argsort")
    b, e_bit = _bits(kv.dtype, begin_bit, end_bit)
    e = _io.ext()
    code = _CODE[kv.dtype]
    with _io.Call(kv, stream) as c:
        iota = c.arange(kv.size)
        ko = c.empty((kv.size,), kv.dtype)
        perm = c.empty((kv.size,), "int64")
        ws, wsb, hold = c.scratch(e.sort_workspace(code, 8, kv.size))
        e.sort(code, 8, kv.ptr, _ptr(ko), _ptr(iota), _ptr(perm), kv.size, bool(descending), b, e_bit, c.device,
               c.stream, ws, wsb)
    return perm


# --- RMSNorm -------------------------------------------------------------------------

def rms_norm(x, weight, eps=1e-6, *, out=None, stream=None):
    """y = x * rsqrt(mean(x**2 over the last axis) + eps) * weight, computed in float32.

    x: float32 or bfloat16, shape (..., width); weight: width items of x's dtype. Returns y
    of x's shape and dtype (or writes ``out``, which may be x). Same bits every run.
    """
    v, wv = _io.view(x, "x"), _io.view(weight, "weight")
    _io.check_dtype(v, "x", ("float32", "bfloat16"), "rms_norm")
    if wv.dtype != v.dtype:
        raise TypeError(f"onepass: argument 'weight' has dtype {wv.dtype}; it must match x ({v.dtype})")
    if len(v.shape) < 1:
        raise ValueError("onepass: argument 'x' is 0-d; rms_norm normalises along the last axis")
    width = v.shape[-1]
    if wv.size != width:
        raise ValueError(f"onepass: argument 'weight' has {wv.size} items; x's last axis has {width}")
    rows = v.size // width if width else 0
    if rows > 0 and width == 0:
        raise ValueError("onepass: argument 'x' has rows of width 0")
    try:
        eps = float(eps)
    except (TypeError, ValueError):
        raise TypeError(f"onepass: argument 'eps' is {eps!r}, not a number") from None
    if not (eps >= 0.0 and eps != float("inf")):
        raise ValueError(f"onepass: argument 'eps' is {eps}; it must be finite and >= 0")
    ov = _check_out(out, v.dtype, v.size)
    _io.same_device([(v, "x"), (wv, "weight"), (ov, "out")])
    e = _io.ext()
    with _io.Call(v, stream) as c:
        res, rp = _out(c, out, v.shape, v.dtype, v.size)
        e.rms_norm(_CODE[v.dtype], v.ptr, wv.ptr, rp, rows, width, eps, c.device, c.stream)
    return res
