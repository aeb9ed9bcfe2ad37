"""Every function against a numpy reference on the GPU, for torch tensors and cupy arrays:
every dtype, sizes 0, 1, odd and tile-sized, views with offsets, streams, CUDA-graph
capture, and errors that leave nothing behind. Skipped where there is no GPU."""

import math

import numpy as np
import pytest

import onepass
from onepass import _onepass

try:
    _onepass.device_count()
except RuntimeError as e:  # no GPU: every test here is skipped, with the reason
    pytest.skip(f"GPU test skipped: {e}", allow_module_level=True)

FRAMEWORKS = []
try:
    import torch

    if torch.cuda.is_available():
        FRAMEWORKS.append("torch")
except ImportError:
    torch = None
try:
    import cupy

    FRAMEWORKS.append("cupy")
except ImportError:
    cupy = None

if not FRAMEWORKS:
    pytest.skip("GPU test skipped: neither torch (with CUDA) nor cupy is installed", allow_module_level=True)

SIZES = [0, 1, 31, 32, 33, 1000, 4095, 4097, 100_003]
SIX = ["int32", "uint32", "int64", "uint64", "float32", "float64"]
RNG = np.random.default_rng(2026)


class FW:
    """Moves numpy arrays to one framework's GPU arrays and back."""

    def __init__(self, name):
        self.name = name

    def dev(self, a):
        if self.name == "torch":
            if a.dtype == np.uint32 or a.dtype == np.uint64 or a.dtype == np.uint16:
                t = torch.from_numpy(a.view(a.dtype.str.replace("u", "i"))).cuda()
                return t.view(getattr(torch, a.dtype.name))
            return torch.from_numpy(np.ascontiguousarray(a)).cuda()
        return cupy.asarray(a)

    def host(self, x):
        if self.name == "torch":
            name = str(x.dtype).split(".")[-1]
            if name in ("uint16", "uint32", "uint64"):
                signed = getattr(torch, name[1:])
                return x.view(signed).cpu().numpy().view(name)
            return x.cpu().numpy()
        return cupy.asnumpy(x)

    def is_native(self, x):
        return isinstance(x, torch.Tensor) if self.name == "torch" else isinstance(x, cupy.ndarray)

    def sync(self):
        if self.name == "torch":
            torch.cuda.synchronize()
        else:
            cupy.cuda.Device().synchronize()


@pytest.fixture(params=FRAMEWORKS)
def fw(request):
    return FW(request.param)


def rand(dtype, n, lo=None, hi=None):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.standard_normal(n).astype(dt)
    if dt.kind == "b":
        return RNG.random(n) < 0.5
    info = np.iinfo(dt)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return RNG.integers(lo, hi, size=n, endpoint=True, dtype=dt)


def assert_close(got, want, dtype, n=1):
    if np.dtype(dtype).kind == "f":
        tol = (1e-4 if dtype == "float32" else 1e-10) * max(1.0, math.sqrt(n))
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


NP_OP = {"sum": np.add, "max": np.maximum, "min": np.minimum}


def identity(op, dtype):
    dt = np.dtype(dtype)
    if op == "sum":
        return dt.type(0)
    if dt.kind == "f":
        return dt.type(-np.inf if op == "max" else np.inf)
    info = np.iinfo(dt)
    return dt.type(info.min if op == "max" else info.max)


def ref_inclusive(a, op):
    if a.dtype.kind == "f" and op == "sum":  # a float64 reference: only the GPU's rounding is compared
        return np.cumsum(a, dtype=np.float64).astype(a.dtype)
    with np.errstate(over="ignore"):
        return NP_OP[op].accumulate(a, dtype=a.dtype) if a.size else a.copy()


def ref_exclusive(a, op, init):
    out = np.empty_like(a)
    if a.size:
        out[0] = init
        out[1:] = ref_inclusive(np.concatenate([[init], a[:-1]]).astype(a.dtype), op)[1:]
    return out


def small_values(dtype, n):
    # Sums of floats stay well conditioned; integers use their whole range (sums wrap).
    return rand(dtype, n)


# --- scans -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SIX)
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_scans(fw, dtype, op):
    for n in SIZES:
        a = small_values(dtype, n)
        x = fw.dev(a)
        got = onepass.inclusive_scan(x, op)
        assert fw.is_native(got) and tuple(got.shape) == (n,)
        assert_close(fw.host(got), ref_inclusive(a, op), dtype, n)
        got = onepass.exclusive_scan(x, op)
        assert_close(fw.host(got), ref_exclusive(a, op, identity(op, dtype)), dtype, n)
        if op == "sum" and n:
            init = 3
            got = onepass.exclusive_scan(x, op, initial=init)
            assert_close(fw.host(got), ref_exclusive(a, op, np.dtype(dtype).type(init)), dtype, n)
        assert np.array_equal(fw.host(x), a)  # input untouched


def test_scan_shapes_out_and_in_place(fw):
    a = rand("int32", 6 * 7, -100, 100).reshape(6, 7)
    x = fw.dev(a)
    got = onepass.cumsum(x)
    assert tuple(got.shape) == (6, 7)
    np.testing.assert_array_equal(fw.host(got).ravel(), np.cumsum(a.ravel(), dtype=np.int32))
    out = fw.dev(np.full(42, -1, np.int32))
    r = onepass.inclusive_scan(x, "max", out=out)
    assert r is out
    np.testing.assert_array_equal(fw.host(out), np.maximum.accumulate(a.ravel()))
    onepass.cumsum(x, out=x)  # in place
    np.testing.assert_array_equal(fw.host(x).ravel(), np.cumsum(a.ravel(), dtype=np.int32))


def test_scan_views_with_offsets(fw):
    a = rand("float32", 100_000)
    x = fw.dev(a)
    for off in (1, 3, 4, 17):
        got = onepass.cumsum(x[off:off + 50_001])
        assert_close(fw.host(got), np.cumsum(a[off:off + 50_001], dtype=np.float64), "float32", 50_001)


def test_scan_large(fw):
    n = (1 << 24) + 5
    a = rand("int32", n, -1000, 1000)
    got = fw.host(onepass.cumsum(fw.dev(a)))
    np.testing.assert_array_equal(got, np.cumsum(a, dtype=np.int32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_deterministic_scan_same_bits(fw, dtype):
    # Values whose sums round differently in every grouping: the bits must not move
    # between runs, views at other alignments, run_to_run and gpu_to_gpu.
    n = (1 << 22) + 3
    a = (RNG.uniform(-1, 1, n + 1) * np.exp2(RNG.integers(-20, 21, n + 1))).astype(dtype)
    x = fw.dev(a)
    first = fw.host(onepass.cumsum(x[:n], deterministic=True))
    # Within rounding: at most a small multiple of eps times the running sum of |x|.
    bound = np.cumsum(np.abs(a[:n]), dtype=np.float64) * (1e-4 if dtype == "float32" else 1e-12)
    assert np.all(np.abs(first - np.cumsum(a[:n], dtype=np.float64)) <= bound)
    for _ in range(5):
        assert np.array_equal(fw.host(onepass.cumsum(x[:n], deterministic=True)).view(np.uint8), first.view(np.uint8))
    assert np.array_equal(fw.host(onepass.inclusive_scan(x[:n], deterministic="run_to_run")).view(np.uint8),
                          first.view(np.uint8))
    shifted = fw.dev(np.concatenate([a[-1:], a[:n]]))  # the same n items, one element on
    assert np.array_equal(fw.host(onepass.cumsum(shifted[1:], deterministic=True)).view(np.uint8),
                          first.view(np.uint8))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_deterministic_sum_same_bits(fw, dtype):
    n = (1 << 22) + 3
    a = (RNG.uniform(-1, 1, n + 1) * np.exp2(RNG.integers(-20, 21, n + 1))).astype(dtype)
    x = fw.dev(a)
    first = fw.host(onepass.sum(x[:n], deterministic=True))
    assert abs(float(first) - float(np.sum(a[:n], dtype=np.float64))) <= float(np.sum(np.abs(a[:n]))) * 1e-4
    shifted = fw.dev(np.concatenate([a[-1:], a[:n]]))
    for y in (x[:n], shifted[1:], x[:n]):
        assert np.asarray(fw.host(onepass.sum(y, deterministic=True))).tobytes() == np.asarray(first).tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_deterministic_segmented_scan_same_bits(fw, dtype):
    # One segment per 100k items on average: chains across many tiles and groups. Every
    # form places the same heads, so flags, offsets and keys give the same bits, at any
    # alignment, run after run.
    n = (1 << 22) + 3
    a = (RNG.uniform(-1, 1, n + 1) * np.exp2(RNG.integers(-20, 21, n + 1))).astype(dtype)
    starts = np.unique(np.concatenate([[0], RNG.integers(1, n, 40)]))
    offsets = np.concatenate([starts, [n]]).astype(np.int64)
    heads = np.zeros(n, np.uint8)
    heads[starts] = 1
    keys = np.cumsum(heads, dtype=np.int64).astype(np.int32)
    x = fw.dev(a)
    first = fw.host(onepass.segmented_inclusive_scan(x[:n], offsets=fw.dev(offsets), deterministic=True))
    want = np.concatenate([np.cumsum(a[b:e], dtype=np.float64) for b, e in zip(offsets[:-1], offsets[1:])])
    bound = np.concatenate([np.cumsum(np.abs(a[b:e]), dtype=np.float64) for b, e in zip(offsets[:-1], offsets[1:])])
    assert np.all(np.abs(first - want) <= bound * (1e-4 if dtype == "float32" else 1e-12))
    shifted = fw.dev(np.concatenate([a[-1:], a[:n]]))
    for got in (onepass.segmented_inclusive_scan(x[:n], head_flags=fw.dev(heads), deterministic=True),
                onepass.inclusive_scan_by_key(fw.dev(keys), x[:n], deterministic="run_to_run"),
                onepass.segmented_inclusive_scan(shifted[1:], offsets=fw.dev(offsets), deterministic=True),
                onepass.segmented_inclusive_scan(x[:n], offsets=fw.dev(offsets), deterministic=True)):
        assert np.array_equal(fw.host(got).view(np.uint8), first.view(np.uint8))
    ex = fw.host(onepass.segmented_exclusive_scan(x[:n], offsets=fw.dev(offsets), deterministic=True))
    ex_again = fw.host(onepass.exclusive_scan_by_key(fw.dev(keys), shifted[1:], deterministic=True))
    assert np.array_equal(ex.view(np.uint8), ex_again.view(np.uint8))


@pytest.mark.skipif(torch is None or not torch.cuda.is_available(), reason="needs torch with CUDA")
def test_cumsum_follows_torch_deterministic_algorithms():
    a = (RNG.uniform(-1, 1, 1 << 20) * np.exp2(RNG.integers(-20, 21, 1 << 20))).astype(np.float32)
    x = torch.from_numpy(a).cuda()
    explicit = onepass.cumsum(x, deterministic=True).cpu().numpy()
    before = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        implicit = onepass.cumsum(x).cpu().numpy()
    finally:
        torch.use_deterministic_algorithms(before)
    assert np.array_equal(explicit.view(np.uint8), implicit.view(np.uint8))


# --- reduce ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SIX)
def test_reduce(fw, dtype):
    for n in SIZES:
        a = small_values(dtype, n)
        x = fw.dev(a)
        for op, fn in (("sum", onepass.sum), ("max", onepass.max), ("min", onepass.min)):
            got = fn(x)
            assert fw.is_native(got) and tuple(got.shape) == ()
            with np.errstate(over="ignore"):
                want = NP_OP[op].reduce(a, dtype=a.dtype) if n else identity(op, dtype)
            assert_close(fw.host(got), want, dtype, n)
        got = onepass.reduce(x, "sum", initial=5)
        with np.errstate(over="ignore"):
            want = np.add.reduce(np.concatenate([[np.dtype(dtype).type(5)], a]).astype(a.dtype), dtype=a.dtype)
        assert_close(fw.host(got), want, dtype, n)


def test_float_sum_same_bits_every_run(fw):
    x = fw.dev(rand("float32", 1 << 22))
    first = fw.host(onepass.sum(x)).tobytes()
    for _ in range(20):
        assert fw.host(onepass.sum(x)).tobytes() == first


# --- histogram -------------------------------------------------------------------------

def ref_even_int(a, bins, lower, upper):
    s = a.astype(np.int64)
    keep = (s >= lower) & (s < upper)
    b = ((s[keep] - lower) * bins) // (upper - lower)
    return np.bincount(b, minlength=bins)[:bins]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32"])
@pytest.mark.parametrize("counts", ["int32", "int64"])
def test_histogram_even_integers(fw, dtype, counts):
    info = np.iinfo(np.dtype(dtype))
    for n in SIZES:
        a = rand(dtype, n)
        for bins, lower, upper in ((256, int(info.min), int(info.max) + 1), (7, 0, 100), (1, -5, 5)):
            got = onepass.histogram_even(fw.dev(a), bins, lower, upper, dtype=counts)
            assert str(got.dtype).endswith(counts)
            np.testing.assert_array_equal(fw.host(got), ref_even_int(a, bins, lower, upper))


def test_histogram_even_float(fw):
    for n in SIZES:
        a = (RNG.random(n) * 12 - 2).astype(np.float32)  # [-2, 10): some outside [0, 8)
        if n > 3:
            a[:3] = [np.nan, 8.0, -0.0]
        got = onepass.histogram_even(fw.dev(a), 16, 0.0, 8.0, dtype="int32")
        ok = a[(a >= 0) & (a < 8)]
        want = np.bincount(np.floor(ok * np.float32(2)).astype(np.int64), minlength=16)
        np.testing.assert_array_equal(fw.host(got), want)


def test_histogram_range(fw):
    for n in SIZES:
        a = rand("int32", n, -50, 50)
        edges = [-40, -3, 0, 1, 2, 30]
        got = onepass.histogram_range(fw.dev(a), edges)
        want, _ = np.histogram(a[(a >= -40) & (a < 30)], bins=edges)
        np.testing.assert_array_equal(fw.host(got), want)
        f = (RNG.random(n) * 4).astype(np.float32)
        fe = np.array([0.0, 0.5, 1.25, 3.0], np.float32)
        got = onepass.histogram_range(fw.dev(f), fe, dtype="int32")
        want, _ = np.histogram(f[f < 3.0], bins=fe)
        np.testing.assert_array_equal(fw.host(got), want)


def test_bincount(fw):
    a = rand("uint8", 10_000, 0, 40)
    np.testing.assert_array_equal(fw.host(onepass.bincount(fw.dev(a))), np.bincount(a))
    np.testing.assert_array_equal(fw.host(onepass.bincount(fw.dev(a), minlength=64)), np.bincount(a, minlength=64))
    np.testing.assert_array_equal(fw.host(onepass.bincount(fw.dev(a), length=10)), np.bincount(a)[:10])


# --- compaction ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SIX)
def test_select_unique_partition(fw, dtype):
    for n in SIZES:
        a = rand(dtype, n) if np.dtype(dtype).kind == "f" else rand(dtype, n, 0, 9)
        x = fw.dev(a)
        m = RNG.random(n) < 0.5
        out, count = onepass.select_flagged(x, fw.dev(m))
        assert tuple(count.shape) == () and str(count.dtype).endswith("int64")
        k = int(fw.host(count))
        np.testing.assert_array_equal(fw.host(out)[:k], a[m])
        np.testing.assert_array_equal(fw.host(onepass.masked_select(x, fw.dev(m))), a[m])
        v = np.dtype(dtype).type(0.25 if np.dtype(dtype).kind == "f" else 4)
        for cmp, keep in ((">", a > v), (">=", a >= v), ("<", a < v), ("<=", a <= v), ("==", a == v),
                          ("!=", a != v)):
            np.testing.assert_array_equal(fw.host(onepass.select_if(x, cmp, v.item(), trim=True)), a[keep])
        sel, rej = onepass.partition(x, ">", v.item(), trim=True)
        np.testing.assert_array_equal(fw.host(sel), a[a > v])
        np.testing.assert_array_equal(fw.host(rej), a[~(a > v)])
        runs = np.repeat(a[: max(1, n // 4)], 4)[:n] if n else a
        keep = np.ones(runs.size, bool)
        keep[1:] = runs[1:] != runs[:-1]
        np.testing.assert_array_equal(fw.host(onepass.unique_consecutive(fw.dev(runs))), runs[keep])


def test_select_flagged_moves_any_itemsize(fw):
    for dtype in ("int8", "int16", "float16", "bool"):
        a = rand(dtype, 5000) if dtype != "float16" else rand("float32", 5000).astype(np.float16)
        m = RNG.random(5000) < 0.3
        np.testing.assert_array_equal(fw.host(onepass.masked_select(fw.dev(a), fw.dev(m))), a[m])


# --- sort ------------------------------------------------------------------------------

def stable_order(k, descending):
    if not descending:
        return np.argsort(k, kind="stable")
    # descending and stable: sort reversed ascending keys by negated rank.
    ranks = np.unique(k, return_inverse=True)[1]
    return np.argsort(-ranks, kind="stable")


@pytest.mark.parametrize("dtype", SIX)
def test_sort(fw, dtype):
    for n in SIZES + [1 << 20]:
        k = rand(dtype, n) if np.dtype(dtype).kind == "f" else rand(dtype, n, 0, 1000)
        x = fw.dev(k)
        for desc in (False, True):
            order = stable_order(k, desc)
            got = onepass.sort(x, descending=desc)
            np.testing.assert_array_equal(fw.host(got), k[order])
            vals = np.arange(n, dtype=np.int64)
            gk, gv = onepass.sort(x, fw.dev(vals), descending=desc)
            np.testing.assert_array_equal(fw.host(gk), k[order])
            np.testing.assert_array_equal(fw.host(gv), order)  # stable: equal keys keep input order
            np.testing.assert_array_equal(fw.host(onepass.argsort(x, descending=desc)), order)
            v4 = rand("float32", n)
            np.testing.assert_array_equal(fw.host(onepass.sort(x, fw.dev(v4), descending=desc)[1]), v4[order])
        assert np.array_equal(fw.host(x), k)


def test_sort_bit_range(fw):
    k = rand("uint32", 100_000)
    got = onepass.argsort(fw.dev(k), begin_bit=0, end_bit=8)
    np.testing.assert_array_equal(fw.host(got), np.argsort(k & 0xFF, kind="stable"))


# --- segmented scans -------------------------------------------------------------------

def ref_segmented(a, starts, ends, op, inclusive, init, gaps_from):
    out = gaps_from.copy()
    for b, e in zip(starts, ends):
        seg = a[b:e]
        out[b:e] = ref_inclusive(seg, op) if inclusive else ref_exclusive(seg, op, init)
    return out


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_segmented_scans(fw, dtype, op):
    for n in SIZES:
        a = rand(dtype, n) if np.dtype(dtype).kind == "f" else rand(dtype, n, -1000, 1000)
        x = fw.dev(a)
        cuts = np.sort(RNG.integers(0, n, size=min(n, 50), endpoint=True)) if n else np.zeros(0, np.int64)
        offsets = np.concatenate([[0], cuts, [n]]).astype(np.int64)
        init = identity(op, dtype)
        for inclusive, fn in ((True, onepass.segmented_inclusive_scan), (False, onepass.segmented_exclusive_scan)):
            want = ref_segmented(a, offsets[:-1], offsets[1:], op, inclusive, init, a)
            for odt in (np.int64, np.int32):
                got = fn(x, offsets=fw.dev(offsets.astype(odt)), op=op)
                assert_close(fw.host(got), want, dtype, n)
            heads = np.zeros(n, bool)
            heads[offsets[:-1][offsets[:-1] < n]] = True
            assert_close(fw.host(fn(x, head_flags=fw.dev(heads), op=op)), want, dtype, n)
            # begin/end with gaps: every other segment; gaps copied from x.
            b, e = offsets[:-1][::2], offsets[1:][::2]
            want_gaps = ref_segmented(a, b, e, op, inclusive, init, a)
            assert_close(fw.host(fn(x, begin=fw.dev(b), end=fw.dev(e), op=op)), want_gaps, dtype, n)
            keys = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets)).astype(np.int64)
            kfn = onepass.inclusive_scan_by_key if inclusive else onepass.exclusive_scan_by_key
            want_keys = ref_segmented(a, offsets[:-1], offsets[1:], op, inclusive, init, a)
            assert_close(fw.host(kfn(fw.dev(keys), x, op)), want_keys, dtype, n)


# --- rms_norm --------------------------------------------------------------------------

def test_rms_norm(fw):
    for rows, width in ((0, 8), (1, 1), (3, 7), (64, 1024), (5, 20_000)):
        a = rand("float32", rows * width).reshape(rows, width)
        w = rand("float32", width)
        got = fw.host(onepass.rms_norm(fw.dev(a), fw.dev(w), 1e-5))
        want = a / np.sqrt((a.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-5) * w
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="bfloat16 needs torch")
def test_rms_norm_bfloat16():
    x = torch.randn(33, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    got = onepass.rms_norm(x, w, 1e-6)
    xf = x.float()
    want = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).bfloat16()
    assert got.dtype == torch.bfloat16
    torch.testing.assert_close(got.float(), want.float(), rtol=1e-2, atol=1e-2)


# --- streams, graphs, interop, errors ------------------------------------------------------

@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="needs torch")
def test_torch_streams():
    a = rand("int32", 1 << 20, -9, 9)
    x = torch.from_numpy(a).cuda()
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    for stream in (s, s.cuda_stream):
        got = onepass.cumsum(x, stream=stream)
        s.synchronize()
        np.testing.assert_array_equal(got.cpu().numpy(), np.cumsum(a, dtype=np.int32))
    with torch.cuda.stream(s):  # the current stream is the default
        got = onepass.sort(x)
    s.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), np.sort(a, kind="stable"))


@pytest.mark.skipif(cupy is None, reason="needs cupy")
def test_cupy_streams():
    a = rand("float64", 1 << 18)
    x = cupy.asarray(a)
    s = cupy.cuda.Stream(non_blocking=True)
    cupy.cuda.Device().synchronize()
    got = onepass.sort(x, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(got), np.sort(a))
    with s:
        got = onepass.exclusive_scan(x, "max")
    s.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(got), ref_exclusive(a, "max", -np.inf))


@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="needs torch")
def test_torch_graph_capture_and_replay():
    n = 300_000
    static = torch.zeros(n, dtype=torch.int32, device="cuda")
    static_f = torch.zeros(n, dtype=torch.float32, device="cuda")
    mask = torch.zeros(n, dtype=torch.bool, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up outside the capture (kernels loaded, attributes set)
        onepass.cumsum(static)
        onepass.sum(static)
        onepass.histogram_even(static, 16, 0, 16)
        onepass.select_flagged(static, mask)
        onepass.sort(static)
        onepass.exclusive_scan(static_f, "max")
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        scan = onepass.cumsum(static)
        total = onepass.sum(static)
        hist = onepass.histogram_even(static, 16, 0, 16)
        sel, count = onepass.select_flagged(static, mask)
        keys = onepass.sort(static)
        fsum = onepass.exclusive_scan(static_f, "max")
    for trial in range(3):
        a = rand("int32", n, 0, 15)
        m = RNG.random(n) < 0.4
        f = rand("float32", n)
        static.copy_(torch.from_numpy(a))
        mask.copy_(torch.from_numpy(m))
        static_f.copy_(torch.from_numpy(f))
        g.replay()
        torch.cuda.synchronize()
        np.testing.assert_array_equal(scan.cpu().numpy(), np.cumsum(a, dtype=np.int32))
        assert int(total) == int(a.sum())
        np.testing.assert_array_equal(hist.cpu().numpy(), np.bincount(a, minlength=16))
        assert int(count) == int(m.sum())
        np.testing.assert_array_equal(sel[: int(count)].cpu().numpy(), a[m])
        np.testing.assert_array_equal(keys.cpu().numpy(), np.sort(a))
        np.testing.assert_array_equal(fsum.cpu().numpy(), ref_exclusive(f, "max", -np.inf))


@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="needs torch")
def test_other_libraries_arrays_come_back_as_torch():
    a = rand("int64", 1000, -5, 5)
    t = torch.from_numpy(a).cuda()

    class Foreign:  # as numba or another library would offer it
        def __init__(self, t):
            self.__cuda_array_interface__ = t.__cuda_array_interface__
            self.keep = t

    got = onepass.cumsum(Foreign(t))
    assert isinstance(got, torch.Tensor)
    np.testing.assert_array_equal(got.cpu().numpy(), np.cumsum(a))


@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="needs torch")
def test_errors_leave_nothing_behind():
    x = torch.arange(1000, dtype=torch.int32, device="cuda")
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    for call, exc in ((lambda: onepass.cumsum(x.cpu()), TypeError),
                      (lambda: onepass.cumsum(x.to(torch.int16)), TypeError),
                      (lambda: onepass.cumsum(x[::2]), ValueError),
                      (lambda: onepass.cumsum(x, out=torch.empty(999, dtype=torch.int32, device="cuda")), ValueError),
                      (lambda: onepass.sort(x, begin_bit=40), ValueError),
                      (lambda: onepass.cumsum(x, stream="s"), TypeError)):
        with pytest.raises(exc):
            call()
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == before


@pytest.mark.skipif(torch is None or torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_arrays_on_two_gpus_are_refused():
    a = torch.zeros(10, dtype=torch.int32, device="cuda:0")
    b = torch.zeros(10, dtype=torch.int32, device="cuda:1")
    with pytest.raises(TypeError, match="'out'"):
        onepass.cumsum(a, out=b)


@pytest.mark.skipif(torch is None or "torch" not in FRAMEWORKS, reason="needs torch")
def test_small_calls_reuse_scratch_per_stream_never_across_streams():
    from onepass import _interop

    x = torch.arange(1000, dtype=torch.int32, device="cuda")
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    for s in (s1, s2):
        s.wait_stream(torch.cuda.current_stream())
    _interop._scratch_cache.clear()
    r1 = [onepass.cumsum(x, stream=s1) for _ in range(3)]
    r2 = [onepass.cumsum(x, stream=s2) for _ in range(3)]
    s1.synchronize()
    s2.synchronize()
    keys = [k for k in _interop._scratch_cache if k[2] in (s1.cuda_stream, s2.cuda_stream)]
    assert len(keys) == 2  # one buffer a stream, reused by that stream's calls
    assert _interop._scratch_cache[keys[0]].data_ptr() != _interop._scratch_cache[keys[1]].data_ptr()
    want = np.cumsum(np.arange(1000), dtype=np.int32)
    for r in r1 + r2:
        np.testing.assert_array_equal(r.cpu().numpy(), want)
