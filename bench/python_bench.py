#!/usr/bin/env python3
"""onepass from Python beside torch, cupy and the C++ onepass-bench, in one run.

Usage:
    python3 bench/python_bench.py [--cpp build/dev/bench/onepass-bench] [--n 2^28]
                                  [--json F] [--markdown F] [--iters 20] [--warmup 3]

Tables (int32 unless said, n items): inclusive sum scan (torch.cumsum, cupy.cumsum, both
asked for int32 results), the float32 scan deterministic (onepass's deterministic=True
against torch.cumsum under torch.use_deterministic_algorithms(True), and both fast paths), sum, sort of keys (torch.sort(stable=True), cupy.sort), a
256-bin histogram of uint8 (torch.bincount, cupy.bincount), masked_select with half kept
(torch.masked_select, boolean indexing in cupy), unique_consecutive of runs of 4
(torch.unique_consecutive), and float32 RMSNorm rows of 4096 (torch's rms_norm). The
variant `onepass_py` is the onepass package's call as a user writes it, results allocated
per call; `onepass (C++)` is onepass-bench's `onepass` row for the same table, run by
--cpp in a subprocess of this run (omitted without --cpp). Every output is checked against
a reference before it is timed. Then, per call at 2^10 items, the host time of
onepass_py and of the extension's bare workspace call (the C++ call plus the binding, with
buffers allocated beforehand), and the time of the first call after import (a fresh
interpreter). Records follow the "onepass-bench/1" schema (bench/check_results.py).
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (the schema's record, document and formatting helpers)


def log(msg):
    print(f"python_bench: {msg}", file=sys.stderr, flush=True)


class Timer:
    def __init__(self, torch, flush_bytes):
        self.torch = torch
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)
        self.flush_buf = torch.zeros(flush_bytes, dtype=torch.uint8, device="cuda")

    def times(self, op, warmup, iters):
        for _ in range(warmup):
            op()
        out = []
        for _ in range(iters):
            self.flush_buf.max()  # read, not written: L2 left clean, as onepass-bench does
            self.start.record()
            op()
            self.end.record()
            self.end.synchronize()
            out.append(self.start.elapsed_time(self.end))
        return out


def cpp_rows(cpp, args_list):
    """onepass-bench's `onepass` records for one invocation, or [] without --cpp."""
    if not cpp:
        return []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cpp.json")
        cmd = [cpp] + args_list + ["--variant", "onepass", "--json", path]
        log("running " + shlex.join(cmd))
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.exists(path):
            log(f"onepass-bench failed ({r.returncode}): {r.stderr[-400:]}")
            return []
        with open(path) as f:
            doc = json.load(f)
    return [rec for rec in doc["records"] if rec["variant"] == "onepass"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cpp", help="onepass-bench, for the C++ rows of the same tables")
    p.add_argument("--n", default="2^28", help="items per table (default 2^28)")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--json")
    p.add_argument("--markdown")
    args = p.parse_args(argv)
    n = peers.parse_size(args.n)

    t0 = time.perf_counter()
    import numpy as np
    import torch

    import onepass
    from onepass import _onepass

    try:
        import cupy
    except ImportError:
        cupy = None
    if not torch.cuda.is_available():
        log("no CUDA device")
        return 2
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 50 << 20) or (50 << 20)
    timer = Timer(torch, 2 * l2)
    rng = np.random.default_rng(42)
    records, failures = [], 0

    # Ceilings: copy and read of int32, as peers.py measures them.
    m = 1 << 28
    src = torch.from_numpy(rng.integers(-1000, 1000, m, dtype=np.int32)).cuda()
    dst = torch.empty_like(src)
    copy_t = timer.times(lambda: dst.copy_(src), args.warmup, args.iters)
    read_t = timer.times(lambda: src.max(), args.warmup, args.iters)
    copy_gbps = peers.gbps_of(8 * m, peers.summarize(copy_t)[0])
    read_gbps = peers.gbps_of(4 * m, peers.summarize(read_t)[0])
    title = f"ceilings: int32, {peers.size_label(m)} items"
    records += [peers.make_record("baseline", "copy", "int32", m, {"table": title}, 8 * m, copy_t, copy_gbps, read_gbps),
                peers.make_record("baseline", "read", "int32", m, {"table": title}, 4 * m, read_t, copy_gbps, read_gbps)]
    src = dst = None  # dropped (the timed lambdas still name them)
    log(f"copy {copy_gbps:.0f} GB/s, read {read_gbps:.0f} GB/s")

    def add(primitive, table, dtype, nn, bytes_moved, variants, check, extra=None):
        nonlocal failures
        params = {"table": table}
        params.update(extra or {})
        for name, op in variants:
            if op is None:
                continue
            try:
                ok = check(op())
            except Exception as e:  # a peer that cannot run this case is recorded as failed
                ok = False
                log(f"{table}: {name}: {type(e).__name__}: {e}")
            t = timer.times(op, args.warmup, args.iters) if ok else None
            if not ok:
                failures += 1
                log(f"{table}: {name}: FAILED")
            records.append(peers.make_record(primitive, name, dtype, nn, params, bytes_moved, t, copy_gbps, read_gbps))
            r = records[-1]
            if r["verified"]:
                log(f"{table}: {name}: {r['ms_median']:.4f} ms, {r['pct_of_copy']:.1f}% of copy")
            torch.cuda.empty_cache()

    def add_cpp(table, rows, bytes_moved, dtype, nn, primitive):
        for rec in rows:
            if rec.get("n") != nn or not rec.get("verified"):
                continue
            t = [rec["ms_median"], rec["ms_min"], rec["ms_max"]]
            r = peers.make_record(primitive, "onepass (C++)", dtype, nn,
                                  {"table": table, "note": "onepass-bench's onepass row (median, min, max of its run)"},
                                  bytes_moved, t, copy_gbps, read_gbps)
            r["ms_median"], r["ms_min"], r["ms_max"] = rec["ms_median"], rec["ms_min"], rec["ms_max"]
            r["gbps"] = peers.gbps_of(bytes_moved, rec["ms_median"])
            r["pct_of_copy"] = 100.0 * r["gbps"] / copy_gbps
            r["pct_of_read"] = 100.0 * r["gbps"] / read_gbps
            r["items_per_s"] = nn / (rec["ms_median"] * 1e-3)
            records.append(r)
            return

    label = peers.size_label(n)

    # --- scan ---
    for nn in sorted({1 << 24, n}):
        a = rng.integers(-1000, 1000, nn, dtype=np.int32)
        x = torch.from_numpy(a).cuda()
        want = torch.from_numpy(np.cumsum(a, dtype=np.int32)).cuda()
        xc = cupy.asarray(a) if cupy else None
        table = f"scan: int32, {peers.size_label(nn)} items, inclusive sum"
        add_cpp(table, cpp_rows(args.cpp, ["--primitive", "scan", "--dtype", "int32", "--n", str(nn),
                                           "--kind", "inclusive"]), 8 * nn, "int32", nn, "scan")
        add("scan", table, "int32", nn, 8 * nn, [
            ("onepass_py", lambda: onepass.cumsum(x)),
            ("torch", lambda: torch.cumsum(x, 0, dtype=torch.int32)),
            ("cupy", (lambda: cupy.cumsum(xc, dtype=cupy.int32)) if cupy else None)],
            lambda r: bool(torch.equal(torch.as_tensor(r, device="cuda"), want)), {"kind": "inclusive", "op": "sum"})
        x = want = xc = None  # dropped (the timed lambdas still name them)

    # --- deterministic float scan: onepass's fixed order against torch's deterministic cumsum ---
    af = (rng.uniform(-1, 1, n) * np.exp2(rng.integers(-20, 21, n))).astype(np.float32)
    xf = torch.from_numpy(af).cuda()
    exact = np.cumsum(af, dtype=np.float64)
    bound = torch.from_numpy(np.cumsum(np.abs(af), dtype=np.float64) * 1e-4).cuda()
    exact_t = torch.from_numpy(exact).cuda()

    def torch_deterministic():
        before = torch.are_deterministic_algorithms_enabled()
        torch.use_deterministic_algorithms(True)
        try:
            return torch.cumsum(xf, 0)
        finally:
            torch.use_deterministic_algorithms(before)

    table = f"scan: float32, {label} items, inclusive sum, deterministic"
    add("scan", table, "float32", n, 8 * n, [
        ("onepass_py", lambda: onepass.cumsum(xf, deterministic=True)),
        ("onepass_py (not deterministic)", lambda: onepass.cumsum(xf, deterministic=False)),
        ("torch", torch_deterministic),
        ("torch (not deterministic)", lambda: torch.cumsum(xf, 0))],
        lambda r: bool(((torch.as_tensor(r, device="cuda").double() - exact_t).abs() <= bound).all()),
        {"kind": "inclusive", "op": "sum", "note": "torch: torch.use_deterministic_algorithms(True)"})
    xf = exact_t = bound = None  # dropped (the timed lambdas still name them)

    a = rng.integers(-1000, 1000, n, dtype=np.int32)
    x = torch.from_numpy(a).cuda()
    xc = cupy.asarray(a) if cupy else None

    # --- reduce ---
    total = int(a.astype(np.int64).sum())
    table = f"reduce: int32, {label} items, sum"
    add_cpp(table, cpp_rows(args.cpp, ["--primitive", "reduce", "--dtype", "int32", "--n", str(n)]), 4 * n,
            "int32", n, "reduce")
    add("reduce", table, "int32", n, 4 * n, [
        ("onepass_py", lambda: onepass.sum(x)),
        ("torch", lambda: torch.sum(x, dtype=torch.int32)),
        ("cupy", (lambda: cupy.sum(xc, dtype=cupy.int32)) if cupy else None)],
        lambda r: int(r) == total, {"ceiling": "read", "op": "sum"})

    # --- sort: full-range random keys, as onepass-bench's "random" distribution ---
    keys = torch.from_numpy(rng.integers(-(1 << 31), 1 << 31, n, dtype=np.int32)).cuda()
    keys_c = cupy.asarray(keys) if cupy else None
    want_sorted = torch.sort(keys, stable=True)[0]
    table = f"radix_sort: int32 keys, {label} items"
    passes = 4
    add_cpp(table, cpp_rows(args.cpp, ["--primitive", "radix_sort", "--dtype", "int32", "--n", str(n),
                                       "--values", "none", "--dist", "random"]), 8 * n * passes, "int32", n,
            "radix_sort")
    add("radix_sort", table, "int32", n, 8 * n * passes, [
        ("onepass_py", lambda: onepass.sort(keys)),
        ("torch", lambda: torch.sort(keys, stable=True)[0]),
        ("cupy", (lambda: cupy.sort(keys_c)) if cupy else None)],
        lambda r: bool(torch.equal(torch.as_tensor(r, device="cuda"), want_sorted)),
        {"values": "none", "digit_passes": passes,
         "note": "GB/s counts keys read and written once per 8-bit digit (4 passes); torch.sort also returns indices"})
    want_sorted = keys = keys_c = None  # dropped (the timed lambdas still name them)

    # --- masked select, half kept ---
    mask = x < 0
    mask_c = cupy.asarray(mask) if cupy else None
    want_sel = x[mask]
    k = int(want_sel.numel())
    table = f"select: int32, {label} items, half kept (masked_select)"
    add("select", table, "int32", n, 4 * n + n + 4 * k, [
        ("onepass_py", lambda: onepass.masked_select(x, mask)),
        ("onepass_py select_flagged", lambda: onepass.select_flagged(x, mask)[0]),
        ("torch", lambda: torch.masked_select(x, mask)),
        ("cupy", (lambda: xc[mask_c]) if cupy else None)],
        lambda r: bool(torch.equal(torch.as_tensor(r, device="cuda")[:k], want_sel)),
        {"keep": 100.0 * k / n, "selected": k,
         "note": "bytes: items and mask read, kept items written; select_flagged leaves the count on the device "
                 "(no synchronisation), the others read it back"})
    mask = mask_c = want_sel = None  # dropped (the timed lambdas still name them)

    # --- unique_consecutive, runs of 4 ---
    runs = torch.repeat_interleave(x[: n // 4], 4)
    want_u = torch.unique_consecutive(runs)
    ku = int(want_u.numel())
    table = f"unique: int32, {label} items, runs of 4 (unique_consecutive)"
    add("unique", table, "int32", n, 4 * n + 4 * ku, [
        ("onepass_py", lambda: onepass.unique_consecutive(runs)),
        ("torch", lambda: torch.unique_consecutive(runs))],
        lambda r: bool(torch.equal(r, want_u)), {"runs": 4, "selected": ku})
    runs = want_u = None  # dropped (the timed lambdas still name them)

    # --- histogram: uint8, 256 bins ---
    h = torch.from_numpy(rng.integers(0, 256, n, dtype=np.uint8)).cuda()
    hc = cupy.asarray(h) if cupy else None
    want_h = torch.bincount(h, minlength=256)
    table = f"histogram: uint8, {label} items, 256 bins"
    add_cpp(table, cpp_rows(args.cpp, ["--primitive", "histogram", "--dtype", "uint8", "--n", str(n), "--bins", "256",
                                       "--dist", "uniform"]), n, "uint8", n, "histogram")
    add("histogram", table, "uint8", n, n, [
        ("onepass_py", lambda: onepass.histogram_even(h, 256, 0, 256)),
        ("onepass_py bincount", lambda: onepass.bincount(h, length=256)),
        ("torch", lambda: torch.bincount(h, minlength=256)),
        ("cupy", (lambda: cupy.bincount(hc, minlength=256)) if cupy else None)],
        lambda r: bool(torch.equal(torch.as_tensor(r, device="cuda").long(), want_h)), {"ceiling": "read"})
    h = hc = want_h = None  # dropped (the timed lambdas still name them)

    # --- RMSNorm, float32, rows of 4096 ---
    rows = n // 4096 // 4
    xr = torch.randn(rows, 4096, device="cuda")
    w = torch.randn(4096, device="cuda")
    want_r = torch.nn.functional.rms_norm(xr, (4096,), w, 1e-6)
    table = f"rms_norm: float32, {rows} x 4096"
    add("rms_norm", table, "float32", rows * 4096, 8 * rows * 4096, [
        ("onepass_py", lambda: onepass.rms_norm(xr, w, 1e-6)),
        ("torch", lambda: torch.nn.functional.rms_norm(xr, (4096,), w, 1e-6))],
        lambda r: bool(torch.allclose(r, want_r, rtol=1e-4, atol=1e-4)))
    xr = w = want_r = x = xc = None  # dropped (the timed lambdas still name them)

    # --- host overhead per call, 2^10 items ---
    small = torch.arange(1024, dtype=torch.int32, device="cuda")
    out = torch.empty_like(small)
    wsb = _onepass.scan_workspace(5, 1024, 0)
    ws = torch.empty(max(wsb, 1), dtype=torch.uint8, device="cuda")
    stream = torch.cuda.current_stream().cuda_stream

    def host_us(op, calls=20000):
        for _ in range(200):
            op()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(calls):
                op()
            best = min(best, (time.perf_counter() - t) / calls * 1e6)
            torch.cuda.synchronize()
        return best

    dev = small.get_device()
    raw = host_us(lambda: _onepass.scan(5, 0, True, small.data_ptr(), 1024, out.data_ptr(), 0, 0, dev, stream,
                                        ws.data_ptr(), wsb))
    py = host_us(lambda: onepass.cumsum(small))
    py_out = host_us(lambda: onepass.cumsum(small, out=out))
    th = host_us(lambda: torch.cumsum(small, 0, dtype=torch.int32))
    table = "host time per call: int32, 2^10 items, inclusive sum (us of host time, no GPU wait)"
    for name, us in (("extension workspace call (C++ call + binding)", raw), ("onepass_py", py),
                     ("onepass_py out=", py_out), ("torch", th)):
        ms = us * 1e-3
        records.append(peers.make_record("host_overhead", name, "int32", 1024,
                                         {"table": table, "note": f"{us:.2f} us per call"}, 8 * 1024, [ms],
                                         copy_gbps, read_gbps))
        log(f"{table}: {name}: {us:.2f} us")

    # --- first call after import, in a fresh interpreter ---
    code = ("import time, torch; x = torch.arange(1 << 20, dtype=torch.int32, device='cuda'); "
            "torch.cuda.synchronize(); t = time.perf_counter(); import onepass; ti = time.perf_counter(); "
            "onepass.cumsum(x); torch.cuda.synchronize(); t1 = time.perf_counter(); "
            "print((ti - t) * 1e3, (t1 - ti) * 1e3)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if r.returncode == 0:
        imp, first = (float(v) for v in r.stdout.split())
        table = "first call after import: int32, 2^20 items, cumsum (ms, wall clock, GPU work included)"
        for name, ms in (("import onepass", imp), ("first onepass.cumsum", first)):
            records.append(peers.make_record("first_call", name, "int32", 1 << 20, {"table": table}, 8 << 20, [ms],
                                             copy_gbps, read_gbps))
            log(f"{table}: {name}: {ms:.2f} ms")
    else:
        log(f"first-call probe failed: {r.stderr[-300:]}")

    doc = peers.make_document(
        f"python_bench.py (onepass {onepass.__version__}, torch {torch.__version__}"
        + (f", cupy {cupy.__version__}" if cupy else "") + ")",
        props.name, props.multi_processor_count, f"runtime {torch.version.cuda}",
        shlex.join([os.path.basename(sys.executable)] + sys.argv), args.warmup, args.iters, 2 * l2,
        copy_gbps, read_gbps, records)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
    text = peers.format_markdown(doc).replace("## Python peers: PyTorch and CuPy", "## onepass from Python")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(peers.format_text(doc))
    log(f"done in {time.perf_counter() - t0:.0f} s, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
