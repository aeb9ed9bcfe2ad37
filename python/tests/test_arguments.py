"""Argument handling, checked without a GPU (CI runs these): every bad argument raises the
documented exception naming it, before the extension is asked for anything; a good call
on a machine without a GPU raises RuntimeError."""

import struct

import numpy as np
import pytest

import onepass
from onepass import _interop


class FakeCuda:
    """A CUDA array as __cuda_array_interface__ describes one (never dereferenced here)."""

    def __init__(self, shape, typestr, strides=None, readonly=False, ptr=0x7F00_0000_0000):
        if isinstance(shape, int):
            shape = (shape,)
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (ptr, readonly),
                                         "strides": strides, "version": 3}


def i32(n=100):
    return FakeCuda(n, "<i4")


def f32(n=100):
    return FakeCuda(n, "<f4")


def flags(n=100):
    return FakeCuda(n, "|b1")


@pytest.fixture(autouse=True)
def no_extension(monkeypatch):
    """Every argument error must come before the extension is touched: make touching it an
    error of its own kind, which the tests of good calls expect."""

    class Reached(Exception):
        pass

    def ext():
        raise Reached("the extension was reached")

    monkeypatch.setattr(_interop, "ext", ext)
    return Reached


def raises(exc, arg, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert f"'{arg}'" in str(info.value), str(info.value)


# --- arrays ---

@pytest.mark.parametrize("bad", [np.arange(10, dtype=np.int32), [1, 2, 3], 3, "x"])
def test_host_or_non_arrays_are_type_errors(bad):
    raises(TypeError, "x", onepass.inclusive_scan, bad)
    raises(TypeError, "x", onepass.reduce, bad)
    raises(TypeError, "x", onepass.histogram_even, bad, 4, 0, 4)


def test_host_array_message_says_host_memory():
    with pytest.raises(TypeError, match="host memory"):
        onepass.cumsum(np.zeros(4, np.float32))


def test_dlpack_object_on_the_host_is_a_type_error():
    class HostDL:
        def __dlpack__(self, **kw):
            raise AssertionError("not to be called")

        def __dlpack_device__(self):
            return (1, 0)  # kDLCPU

    raises(TypeError, "x", onepass.cumsum, HostDL())


@pytest.mark.parametrize("fn", [onepass.inclusive_scan, onepass.exclusive_scan, onepass.reduce, onepass.unique,
                                onepass.sort, onepass.argsort])
def test_unsupported_dtypes_are_type_errors(fn):
    raises(TypeError, "x" if fn not in (onepass.sort, onepass.argsort) else "keys", fn, FakeCuda(8, "<f2"))
    raises(TypeError, "x" if fn not in (onepass.sort, onepass.argsort) else "keys", fn, FakeCuda(8, "|u1"))


def test_unknown_typestr_is_a_type_error():
    raises(TypeError, "x", onepass.cumsum, FakeCuda(8, "<c8"))


def test_non_contiguous_is_a_value_error():
    raises(ValueError, "x", onepass.cumsum, FakeCuda((4, 4), "<i4", strides=(32, 4)))
    raises(ValueError, "x", onepass.cumsum, FakeCuda((4,), "<i4", strides=(8,)))


def test_contiguous_strides_and_unit_extents_are_accepted(no_extension):
    with pytest.raises(no_extension):
        onepass.cumsum(FakeCuda((4, 4), "<i4", strides=(16, 4)))
    with pytest.raises(no_extension):
        onepass.cumsum(FakeCuda((4, 1), "<i4", strides=(4, 999)))


# --- scans and reduce ---

def test_scan_op_and_initial():
    raises(ValueError, "op", onepass.inclusive_scan, i32(), "prod")
    raises(ValueError, "op", onepass.inclusive_scan, i32(), None)
    raises(ValueError, "initial", onepass.exclusive_scan, i32(), initial=2 ** 31)
    raises(ValueError, "initial", onepass.exclusive_scan, FakeCuda(4, "<u4"), initial=-1)
    raises(ValueError, "initial", onepass.exclusive_scan, i32(), initial=0.5)
    raises(TypeError, "initial", onepass.exclusive_scan, i32(), initial="zero")
    raises(ValueError, "initial", onepass.reduce, i32(), "max", initial=2 ** 40)


def test_deterministic_is_checked():
    raises(ValueError, "deterministic", onepass.cumsum, f32(), deterministic="yes")
    raises(ValueError, "deterministic", onepass.inclusive_scan, f32(), deterministic=1)
    raises(ValueError, "deterministic", onepass.exclusive_scan, f32(), deterministic="GPU_TO_GPU")
    raises(ValueError, "deterministic", onepass.sum, f32(), deterministic=2)
    raises(ValueError, "deterministic", onepass.segmented_inclusive_scan, f32(), head_flags=flags(), deterministic=0)
    raises(ValueError, "deterministic", onepass.exclusive_scan_by_key, i32(), f32(), deterministic="always")


def test_determinism_codes():
    v = _interop.view(f32(), "x")
    assert [_interop.determinism_code(d, v) for d in (False, "run_to_run", "gpu_to_gpu", True, None)] == [0, 1, 2, 2, 0]


def test_out_is_checked():
    raises(TypeError, "out", onepass.cumsum, i32(), out=f32())
    raises(ValueError, "out", onepass.cumsum, i32(), out=i32(99))
    raises(ValueError, "out", onepass.cumsum, i32(), out=FakeCuda(100, "<i4", readonly=True))
    raises(TypeError, "out", onepass.cumsum, i32(), out=np.zeros(100, np.int32))
    raises(ValueError, "out", onepass.reduce, i32(), out=i32(2))


def test_good_calls_reach_the_extension(no_extension):
    for call in [lambda: onepass.cumsum(i32()), lambda: onepass.exclusive_scan(f32(), "max", initial=-1.5),
                 lambda: onepass.cumsum(f32(), deterministic=True),
                 lambda: onepass.sum(f32(), deterministic="gpu_to_gpu"),
                 lambda: onepass.inclusive_scan(f32(), deterministic="run_to_run"),
                 lambda: onepass.reduce(FakeCuda(0, "<f8"), "min"), lambda: onepass.sum(i32(), out=i32(1)),
                 lambda: onepass.histogram_even(FakeCuda(10, "|u1"), 256, 0, 256),
                 lambda: onepass.histogram_range(f32(), [0.0, 0.5, 1.0], dtype="int32"),
                 lambda: onepass.select_flagged(f32(), flags()), lambda: onepass.select_if(i32(), ">", 3),
                 lambda: onepass.partition(f32(), "!=", 0.25), lambda: onepass.unique(i32()),
                 lambda: onepass.sort(i32(), f32()), lambda: onepass.argsort(f32(), descending=True),
                 lambda: onepass.segmented_inclusive_scan(f32(), offsets=FakeCuda(5, "<i8")),
                 lambda: onepass.segmented_exclusive_scan(i32(), head_flags=flags(), initial=7),
                 lambda: onepass.inclusive_scan_by_key(FakeCuda(100, "<u8"), f32()),
                 lambda: onepass.segmented_exclusive_scan(f32(), offsets=FakeCuda(5, "<i4"), deterministic=True),
                 lambda: onepass.inclusive_scan_by_key(i32(), f32(), deterministic="run_to_run"),
                 lambda: onepass.rms_norm(FakeCuda((4, 25), "<f4"), FakeCuda(25, "<f4"))]:
        with pytest.raises(no_extension):
            call()


# --- histogram ---

def test_histogram_arguments():
    u8 = FakeCuda(10, "|u1")
    raises(ValueError, "bins", onepass.histogram_even, u8, 0, 0, 256)
    raises(TypeError, "bins", onepass.histogram_even, u8, 2.5, 0, 256)
    raises(ValueError, "upper", onepass.histogram_even, u8, 4, 10, 10)
    raises(ValueError, "upper", onepass.histogram_even, f32(), 4, 1.0, float("nan"))
    raises(ValueError, "lower", onepass.histogram_even, u8, 4, 0.5, 10)
    raises(TypeError, "dtype", onepass.histogram_even, u8, 4, 0, 4, dtype="float32")
    raises(TypeError, "x", onepass.histogram_even, FakeCuda(10, "<f8"), 4, 0, 4)
    raises(ValueError, "edges", onepass.histogram_range, u8, [1])
    raises(ValueError, "edges", onepass.histogram_range, u8, [1, 3, 2])
    raises(ValueError, "edges", onepass.histogram_range, f32(), [0.0, float("nan"), 1.0])
    raises(ValueError, "edges", onepass.histogram_range, u8, [0, 0.5, 1])
    raises(TypeError, "edges", onepass.histogram_range, u8, FakeCuda(3, "<i8"))
    raises(TypeError, "edges", onepass.histogram_range, u8, ["a", "b"])
    raises(TypeError, "out", onepass.histogram_even, u8, 4, 0, 4, out=FakeCuda(4, "<i4"))
    raises(ValueError, "out", onepass.histogram_even, u8, 4, 0, 4, dtype="int32", out=FakeCuda(5, "<i4"))
    raises(ValueError, "minlength", onepass.bincount, u8, length=4, minlength=-1)


# --- compaction ---

def test_compaction_arguments():
    raises(ValueError, "x", onepass.select_flagged, f32(), flags(99))
    raises(TypeError, "mask", onepass.select_flagged, f32(), FakeCuda(100, "<i4"))
    raises(ValueError, "cmp", onepass.select_if, i32(), "<>", 0)
    raises(ValueError, "value", onepass.select_if, i32(), ">", 2.5)
    raises(ValueError, "value", onepass.partition, FakeCuda(4, "<u8"), ">", -1)
    raises(TypeError, "x", onepass.select_if, FakeCuda(4, "<i2"), ">", 0)
    raises(TypeError, "out", onepass.unique, i32(), out=f32())


# --- sort ---

def test_sort_arguments():
    raises(TypeError, "values", onepass.sort, i32(), FakeCuda(100, "<i2"))
    raises(ValueError, "keys", onepass.sort, i32(), i32(99))
    raises(ValueError, "begin_bit", onepass.sort, i32(), begin_bit=33)
    raises(ValueError, "begin_bit", onepass.sort, i32(), begin_bit=-1)
    raises(ValueError, "end_bit", onepass.sort, i32(), begin_bit=8, end_bit=4)
    raises(ValueError, "end_bit", onepass.argsort, FakeCuda(4, "<f8"), end_bit=65)


# --- segmented scans ---

def test_segmented_arguments():
    raises(ValueError, "offsets", onepass.segmented_inclusive_scan, f32())
    with pytest.raises(ValueError, match="got offsets, head_flags"):
        onepass.segmented_inclusive_scan(f32(), offsets=FakeCuda(3, "<i4"), head_flags=flags())
    raises(TypeError, "offsets", onepass.segmented_inclusive_scan, f32(), offsets=FakeCuda(3, "<f4"))
    raises(ValueError, "offsets", onepass.segmented_inclusive_scan, f32(), offsets=FakeCuda(0, "<i8"))
    raises(ValueError, "end", onepass.segmented_inclusive_scan, f32(), begin=FakeCuda(3, "<i4"))
    raises(ValueError, "end", onepass.segmented_inclusive_scan, f32(), end=FakeCuda(3, "<i4"))
    raises(TypeError, "end", onepass.segmented_inclusive_scan, f32(), begin=FakeCuda(3, "<i4"),
           end=FakeCuda(3, "<i8"))
    raises(ValueError, "head_flags", onepass.segmented_inclusive_scan, f32(), head_flags=flags(7))
    raises(TypeError, "x", onepass.segmented_inclusive_scan, FakeCuda(100, "<u4"), head_flags=flags())
    raises(TypeError, "keys", onepass.inclusive_scan_by_key, f32(), f32())
    raises(ValueError, "keys", onepass.inclusive_scan_by_key, i32(3), f32())


# --- rms_norm ---

def test_rms_norm_arguments():
    x, w = FakeCuda((4, 8), "<f4"), FakeCuda(8, "<f4")
    raises(ValueError, "weight", onepass.rms_norm, x, FakeCuda(7, "<f4"))
    raises(TypeError, "weight", onepass.rms_norm, x, FakeCuda(8, "<f8"))
    raises(TypeError, "x", onepass.rms_norm, FakeCuda((4, 8), "<i4"), FakeCuda(8, "<i4"))
    raises(ValueError, "eps", onepass.rms_norm, x, w, -1.0)
    raises(ValueError, "eps", onepass.rms_norm, x, w, float("inf"))
    raises(ValueError, "x", onepass.rms_norm, FakeCuda((), "<f4"), FakeCuda(1, "<f4"))


# --- scalars and streams ---

def test_scalars_are_packed_exactly():
    assert _interop.pack(-1, "int32", "v") == 0xFFFFFFFF
    assert _interop.pack(2 ** 64 - 1, "uint64", "v") == 2 ** 64 - 1
    assert _interop.pack(1.5, "float32", "v") == int.from_bytes(struct.pack("<f", 1.5), "little")
    assert _interop.pack(-0.1, "float64", "v") == int.from_bytes(struct.pack("<d", -0.1), "little")
    assert _interop.pack(1.0, "bfloat16", "v") == 0x3F80
    assert _interop.pack(True, "int64", "v") == 1
    assert _interop.identity("max", "int32") == -(2 ** 31)
    assert _interop.identity("min", "uint16") == 2 ** 16 - 1
    assert _interop.identity("max", "float32") == float("-inf")


def test_stream_handles():
    class Proto:
        def __cuda_stream__(self):
            return (0, 1234)

    class TorchLike:
        cuda_stream = 77

    class CupyLike:
        ptr = 88

    assert _interop.stream_handle(5) == 5
    assert _interop.stream_handle(Proto()) == 1234
    assert _interop.stream_handle(TorchLike()) == 77
    assert _interop.stream_handle(CupyLike()) == 88
    with pytest.raises(TypeError, match="'stream'"):
        _interop.stream_handle("default")
    with pytest.raises(TypeError, match="'stream'"):
        _interop.stream_handle(True)


def test_dtype_names():
    assert _interop.dtype_name("int64", "dtype") == "int64"
    assert _interop.dtype_name(np.dtype("int32"), "dtype") == "int32"
    assert _interop.dtype_name(np.int32, "dtype") == "int32"
    with pytest.raises(TypeError, match="'dtype'"):
        _interop.dtype_name("complex64", "dtype")
