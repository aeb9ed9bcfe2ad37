#!/usr/bin/env python3
"""Measure the Python peers (torch.cumsum, cupy.cumsum, torch's RMSNorm,
torch.bincount, torch.histc, torch.masked_select, torch.unique_consecutive, torch.sort
and cupy.sort) and write "onepass-bench/1" JSON.

Usage:
    python3 bench/peers.py                       # the seed tables (--preset seeds)
    python3 bench/peers.py --json peers.json --markdown peers.md
    python3 bench/peers.py --n 2^28 2^28+1 64M --dtype int32,float --peers torch
    python3 bench/peers.py --iters 50 --warmup 5

Options:
    --preset seeds   the tables the C++ onepass-bench also writes, with the same titles
                     (default when --n is not given): the scans, and with torch the
                     RMSNorm tables (torch.nn.functional.rms_norm, float and bfloat16),
                     the histogram tables (torch.bincount on uint8 and int32,
                     torch.histc on float) and the stream-compaction tables
                     (torch.masked_select for select and, twice, for partition;
                     torch.unique_consecutive for unique), and the radix sort tables
                     (torch.sort(stable=True) and cupy.sort of int32 and int64 keys)
    --n N ...        custom sizes: "2^28", "2^28+1", "268435456", "64M" (K/M/G = 2^10/20/30)
    --dtype LIST     custom element types: int32, int64, float, double (default int32)
    --peers LIST     torch,cupy (default both); one that does not import is skipped
    --iters, --warmup, --json FILE, --markdown FILE, --seed

Each variant's output is checked against a numpy reference on the CPU before it is
timed; a mismatch is recorded as verified false, printed as FAILED, and makes the exit
code 1. Exit code 2: no CUDA device (or neither framework imports). Progress goes to
stderr, the results table to stdout.

The copy and read ceilings are measured in the same run, so "% of copy" compares
against this GPU at this moment, like the C++ tool does. Everything runs on device 0.

Only the standard library is imported at module level: the size parser, the record
and document builders and the formatters are pure functions that the unit tests in
bench/test_check_results.py exercise on machines without torch, cupy or numpy.
"""

import argparse
import datetime
import math
import os
import re
import shlex
import sys

SCHEMA = "onepass-bench/1"

# Canonical dtype names (as the C++ tool writes them) -> numpy names. The
# peers cover the scan element types whose reference can be made exact.
DTYPES = {"int32": "int32", "int64": "int64", "float": "float32", "double": "float64"}
DTYPE_ALIASES = {"float32": "float", "float64": "double", "int": "int32"}

SUFFIXES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

PEERS = ("torch", "cupy")
VARIANT = {"torch": "torch.cumsum", "cupy": "cupy.cumsum"}

NO_EXCLUSIVE = "inclusive cumsum: the library has no exclusive scan"

# (table title, dtype, n, kind measured, note). Titles must match the C++
# tool's byte for byte: plot.py merges tables by title.
SEED_CASES = (
    ("scan: int32, 2^30 items, inclusive sum", "int32", 1 << 30, "inclusive", None),
    ("scan: float, 64M items, exclusive sum", "float", 1 << 26, "inclusive", NO_EXCLUSIVE),
    ("scan: float, 16M items, inclusive sum", "float", 1 << 24, "inclusive", None),
)

CEILING_N = 1 << 30  # items of int32 for copy/read, halved until it fits
SEED = 42
# Integer inputs: small enough that no partial sum of 2^30 of them leaves
# int32 in practice (a random walk of that length strays ~2e7 from zero).
INT_RANGE = (-1000, 1000)
# Float inputs are k / 256 with k in this range: every partial sum is a
# multiple of 1/256 far below 2^16 in magnitude, hence exact in float32 in any
# association order, so the check can be bitwise.
FLOAT_K_RANGE = (-16, 16)
FLOAT_SCALE = 256

# The fused RMSNorm tables, torch only (cupy has no RMSNorm): (dtype, rows,
# width). Titles come from rms_norm_title, onepass-bench's byte for byte.
RMS_NORM_SEED_CASES = (("float", 4096, 4096), ("bfloat16", 4096, 4096))
RMS_NORM_DTYPES = {"float": "float32", "bfloat16": "bfloat16"}  # -> torch names
RMS_NORM_ITEMSIZE = {"float": 4, "bfloat16": 2}
RMS_NORM_EPS = 1e-6
RMS_NORM_VARIANT = "torch.rms_norm"

# The histogram tables, torch only (titles as onepass-bench's histogram_title). Each
# case: (title, variant, dtype, n, bins, dist, lower, upper, note); samples are drawn
# from the distributions of tests/support/histogram_reference.hpp within [lower, upper)
# and counted in `bins` even bins over it.
HISTOGRAM_DISTS = ("uniform", "skewed", "one_bin", "sorted")
HISTOGRAM_DTYPES = {"uint8": "uint8", "int32": "int32", "float": "float32"}  # -> torch/numpy names
HISTOGRAM_ITEMSIZE = {"uint8": 1, "int32": 4, "float": 4}
# Bytes of one count as each op writes it: bincount counts in int64, histc in the
# input's float type.
HISTOGRAM_COUNT_BYTES = {"torch.bincount": 8, "torch.histc": 4}
BINCOUNT_NOTE = ("minlength=256; bincount sizes its output from the samples' maximum, a reduction "
                 "and a host synchronisation inside the timed call")
INT32_BINCOUNT_NOTE = ("int32 samples in [0, 256), so that bincount's bins (one per value) are the table's 256 "
                       "even bins; onepass-bench's int32 levels span the whole int32 range")
HISTC_NOTE = "bins=256, min=0, max=1; counts are float32 (exact up to 2^24 per bin)"
HISTOGRAM_CHUNK = 1 << 24  # samples generated, and referenced, per step: bounds the temporaries

# The stream-compaction tables, torch only (titles as onepass-bench's select_title,
# unique_title and partition_title). Items are ranks drawn uniformly from [0, 2^24),
# exact in every type: int32 rank - 2^23, float rank / 2^24. select and partition keep
# the items below the threshold of rank keep% of 2^24, so each item is kept with
# probability keep% (0 keeps none, 100 all), as in onepass-bench, whose items are kept
# with that probability too. unique's items come in runs of `runs` equal items; bit 23
# of a run's rank is the run's parity, so each run differs from the one before.
COMPACTION_PRIMITIVES = ("select", "unique", "partition")
COMPACTION_DTYPES = {"int32": "int32", "int64": "int64", "float": "float32", "double": "float64"}
COMPACTION_ITEMSIZE = {"int32": 4, "int64": 8, "float": 4, "double": 8}
COMPACTION_RANK_BITS = 24
COUNT_BYTES = 8  # onepass-bench counts the 64-bit count select and unique write
COMPACTION_VARIANT = {"select": "torch.masked_select", "unique": "torch.unique_consecutive",
                      "partition": "torch.masked_select x2"}
SELECT_NOTE = ("torch.masked_select(x, x < t), the comparison inside the timed call; masked_select sizes its "
               "output from the mask's count, a host synchronisation inside the call")
UNIQUE_NOTE = ("torch.unique_consecutive(x); it sizes its output from the count, a host synchronisation inside "
               "the call")
PARTITION_NOTE = ("torch has no partition; its nearest equivalent is timed: m = x < t, then x[m] and x[~m] as two "
                  "masked_selects (the same items in the same order as a stable partition, in two separate "
                  "tensors), so x is read twice and the host synchronises twice")

# The radix sort tables (titles as onepass-bench's radix_sort_title): torch.sort(stable=True)
# and cupy.sort on random keys (uniform over the type's whole range, drawn by numpy on the
# host), checked against numpy's stable sort. Their GB/s counts onepass-bench's traffic
# model: keys read and written once per 8-bit digit (4 passes for 4-byte keys, 8 for
# 8-byte ones), a model of one design, not a lower bound. torch.sort also returns the
# permutation (int64 indices, checked as well): it does the work of a sort of pairs, and
# is counted on keys alone as the keys-only rows are.
RADIX_SORT_DTYPES = {"int32": "int32", "int64": "int64"}  # -> numpy/torch/cupy names
RADIX_SORT_ITEMSIZE = {"int32": 4, "int64": 8}
RADIX_SORT_SEED_CASES = (("int32", 1 << 28), ("int64", 1 << 27))
RADIX_SORT_VARIANT = {"torch": "torch.sort", "cupy": "cupy.sort"}
RADIX_SORT_NOTE = {
    "torch": "torch.sort(x, stable=True); it returns the int64 permutation too (checked), the work of a sort of "
             "pairs",
    "cupy": "cupy.sort(x)",
}

# Assumed L2 size when the framework cannot report it: at least that of any
# current data-centre GPU (B200: 126 MB), so the 2x flush still evicts.
FALLBACK_L2_BYTES = 128 << 20


class NoDevice(Exception):
    """The framework imported but sees no CUDA device."""


# ---------------------------------------------------------------------------
# Pure helpers (no torch, cupy or numpy)


_TERM = re.compile(r"^(?:(\d+)\^(\d+)|(\d+)([KMG]?))$", re.IGNORECASE)


def parse_size(text):
    """Parse an item count: "2^28", "2^28+1", "2^20-3", "268435456", "64M", "1G+5"."""
    s = text.strip().replace("_", "")
    parts = re.split(r"([+-])", s)
    if not parts or not parts[0]:
        raise ValueError(f"bad size {text!r}")
    total, sign = 0, 1
    for i, part in enumerate(parts):
        if i % 2 == 1:
            sign = 1 if part == "+" else -1
            continue
        m = _TERM.match(part.strip())
        if not m:
            raise ValueError(f"bad size {text!r}: cannot read {part!r}")
        if m.group(1) is not None:
            value = int(m.group(1)) ** int(m.group(2))
        else:
            value = int(m.group(3)) * SUFFIXES.get(m.group(4).upper(), 1)
        total += sign * value
    if total < 1:
        raise ValueError(f"bad size {text!r}: must be at least 1")
    return total


def size_label(n):
    """As onepass-bench's format_count: "2^k" from 2^10 up, "2^k+c" / "2^k-c" close to
    a power of two, the plain number otherwise; so custom titles match."""
    if n >= 1:
        k = n.bit_length() - 1
        for e in (k, k + 1):
            if e < 10 or e > 62:
                continue
            offset = n - (1 << e)
            if offset == 0:
                return f"2^{e}"
            near = min(1024, (1 << e) >> 6)  # 2^28+1, but 1000 rather than 2^10-24
            if -near <= offset <= near:
                return f"2^{e}{'+' if offset > 0 else '-'}{abs(offset)}"
    return str(n)


def canonical_dtype(name):
    name = name.strip().lower()
    name = DTYPE_ALIASES.get(name, name)
    if name not in DTYPES:
        raise ValueError(f"unsupported dtype {name!r} (supported: {', '.join(DTYPES)})")
    return name


def custom_title(dtype, n):
    return f"scan: {dtype}, {size_label(n)} items, inclusive sum"


def build_cases(sizes, dtypes):
    """Cases as (title, dtype, n, kind, note); the seed preset when sizes is empty."""
    if not sizes:
        return list(SEED_CASES)
    return [(custom_title(d, n), d, n, "inclusive", None) for d in dtypes for n in sizes]


def rms_norm_title(dtype, rows, width):
    """As onepass-bench's rms_norm_title: "rmsnorm: float, 4096 rows x 4096 items"."""
    return f"rmsnorm: {dtype}, {rows} rows x {width} items"


def build_rms_norm_cases(sizes):
    """The RMSNorm cases as (dtype, rows, width): the seed preset's, none with --n."""
    return [] if sizes else list(RMS_NORM_SEED_CASES)


def rms_norm_bytes(dtype, rows, width):
    """Minimum traffic, as onepass-bench counts it: x read and y written once, the
    weight read once."""
    return (2 * rows * width + width) * RMS_NORM_ITEMSIZE[dtype]


def histogram_title(dtype, n, bins, dist):
    """As onepass-bench's histogram_title: "histogram: uint8, 2^30 samples, 256 bins, uniform"."""
    return f"histogram: {dtype}, {size_label(n)} samples, {bins} bins, {dist}"


def build_histogram_cases(sizes):
    """The histogram cases (see HISTOGRAM_DISTS above): the seed preset's, none with --n.
    torch.bincount beside onepass-bench's 256-bin uint8 tables (every distribution, and
    the published 10M-sample table), on int32 (the SPEC's torch.bincount figure) and
    torch.histc on float."""
    if sizes:
        return []
    n = 1 << 30
    cases = [(histogram_title("uint8", n, 256, d), "torch.bincount", "uint8", n, 256, d, 0, 256, BINCOUNT_NOTE)
             for d in HISTOGRAM_DISTS]
    cases.append(("histogram: uint8, 10M samples, 256 bins, uniform", "torch.bincount", "uint8", 10 << 20, 256,
                  "uniform", 0, 256, BINCOUNT_NOTE))
    cases.append((histogram_title("int32", n, 256, "uniform"), "torch.bincount", "int32", n, 256, "uniform", 0, 256,
                  f"{BINCOUNT_NOTE}; {INT32_BINCOUNT_NOTE}"))
    cases.append((histogram_title("float", n, 256, "uniform"), "torch.histc", "float", n, 256, "uniform", 0.0, 1.0,
                  HISTC_NOTE))
    return cases


def histogram_bytes(variant, dtype, n, bins):
    """Minimum traffic, as onepass-bench counts it: every sample read once, every
    count written once (in the op's own count type)."""
    return n * HISTOGRAM_ITEMSIZE[dtype] + bins * HISTOGRAM_COUNT_BYTES[variant]


def select_title(dtype, n, keep):
    """As onepass-bench's select_title: "select: int32, 2^28 items, 50% kept"."""
    return f"select: {dtype}, {size_label(n)} items, {keep}% kept"


def unique_title(dtype, n, runs):
    """As onepass-bench's unique_title: "unique: int32, 2^28 items, runs of 4"."""
    return f"unique: {dtype}, {size_label(n)} items, runs of {runs}"


def partition_title(dtype, n, keep):
    """As onepass-bench's partition_title: "partition: int32, 2^28 items, 50% kept"."""
    return f"partition: {dtype}, {size_label(n)} items, {keep}% kept"


def build_compaction_cases(sizes):
    """The stream-compaction cases as (title, primitive, variant, dtype, n, keep, runs,
    note), keep None for unique and runs None for the others: onepass-bench's seed
    tables, none with --n."""
    if sizes:
        return []
    n = 1 << 28
    cases = [(select_title("int32", n, k), "select", COMPACTION_VARIANT["select"], "int32", n, k, None, SELECT_NOTE)
             for k in (1, 50, 99)]
    cases += [(unique_title("int32", n, r), "unique", COMPACTION_VARIANT["unique"], "int32", n, None, r, UNIQUE_NOTE)
              for r in (1, 4, 1000)]
    cases.append((partition_title("int32", n, 50), "partition", COMPACTION_VARIANT["partition"], "int32", n, 50,
                  None, PARTITION_NOTE))
    return cases


def compaction_threshold_rank(keep):
    """The rank below which keep percent of the ranks lie, rounded to the nearest."""
    if not 0 <= keep <= 100:
        raise ValueError(f"keep {keep} is not a percentage from 0 to 100")
    return ((keep << COMPACTION_RANK_BITS) + 50) // 100


def compaction_value(rank, dtype):
    """The item of a rank in [0, 2^24]: rank - 2^23 for integers, rank / 2^24 for floats
    (exact in every type, and increasing with the rank)."""
    if dtype in ("float", "double"):
        return rank / float(1 << COMPACTION_RANK_BITS)
    return rank - (1 << (COMPACTION_RANK_BITS - 1))


def unique_run_count(n, runs):
    """How many runs (and so items unique keeps) n items in runs of `runs` make."""
    return -(-n // runs)


def compaction_bytes(primitive, dtype, n, selected):
    """Minimum traffic, as onepass-bench counts it: select and unique read every item and
    write the `selected` items they keep and the 8-byte count; partition reads every item
    and writes every item, to one side or the other."""
    size = COMPACTION_ITEMSIZE[dtype]
    if primitive == "partition":
        return 2 * n * size
    return (n + selected) * size + COUNT_BYTES


def radix_sort_title(dtype, n, values="none", dist="random", order="ascending"):
    """As onepass-bench's radix_sort_title: "radix_sort: int32, 2^28 keys, random, ascending"."""
    if values == "none":
        return f"radix_sort: {dtype}, {size_label(n)} keys, {dist}, {order}"
    return f"radix_sort: {dtype} + {values} values, {size_label(n)} pairs, {dist}, {order}"


def build_radix_sort_cases(sizes):
    """The radix sort cases as (title, dtype, n): the seed tables, none with --n."""
    if sizes:
        return []
    return [(radix_sort_title(dtype, n), dtype, n) for dtype, n in RADIX_SORT_SEED_CASES]


def radix_sort_digit_passes(dtype):
    """8-bit digit passes of the traffic model: key bits / 8."""
    return RADIX_SORT_ITEMSIZE[dtype]


def radix_sort_bytes(dtype, n):
    """The modelled traffic, as onepass-bench counts it for keys alone: every key read
    and written once per 8-bit digit."""
    return 2 * radix_sort_digit_passes(dtype) * n * RADIX_SORT_ITEMSIZE[dtype]


def radix_sort_keys(dtype, n, seed):
    """n keys uniform over the whole range of the type, on the host (numpy)."""
    import numpy as np

    info = np.iinfo(RADIX_SORT_DTYPES[dtype])
    rng = np.random.default_rng(seed)
    return rng.integers(info.min, info.max, size=n, dtype=RADIX_SORT_DTYPES[dtype], endpoint=True)


def rms_norm_tolerance(dtype, width):
    """Relative tolerance of one output element against the float64 reference, the
    one tests/support/rms_norm_reference.hpp derives (and the C++ bench uses): the
    float sum of squares' rounding chain (at most ceil(width / 32) + 11 roundings when
    >= 32 threads share a row), / width and + eps, rsqrt's 2 ulp, two multiplies,
    doubled for second-order terms and eps rounded to float; for bfloat16, plus the
    final rounding to 8 significant bits, 2^-8, which dominates."""
    u = 2.0 ** -24
    d = math.ceil(width / 32) + 11
    float_bound = 2.0 * ((d + 2) / 2 + 6) * u
    return float_bound if dtype == "float" else 2.0 ** -8 + 2.0 * float_bound


def summarize(times_ms):
    """(median, min, max). For an even count the median is the mean of the two
    middle elements, as in onepass-bench (bench/gpu.cuh), so both tools report the
    same statistic."""
    t = sorted(times_ms)
    m = len(t)
    median = t[m // 2] if m % 2 else 0.5 * (t[m // 2 - 1] + t[m // 2])
    return median, t[0], t[-1]


def gbps_of(bytes_moved, ms):
    return bytes_moved / (ms * 1e-3) / 1e9


def make_record(primitive, variant, dtype, n, params, bytes_moved, times_ms, copy_gbps, read_gbps):
    """One schema record. times_ms None means the output failed verification:
    verified false and every timing field null. bytes_moved is the minimum
    traffic of the operation, the numerator of gbps."""
    rec = {
        "primitive": primitive,
        "variant": variant,
        "dtype": dtype,
        "n": int(n),
        "params": dict(params),
        "ms_median": None,
        "ms_min": None,
        "ms_max": None,
        "gbps": None,
        "pct_of_copy": None,
        "pct_of_read": None,
        "items_per_s": None,
        "verified": times_ms is not None,
    }
    if times_ms is None:
        return rec
    med, lo, hi = summarize(times_ms)
    if med <= 0:
        raise ValueError(f"{variant}: median time {med} ms is not positive")
    gbps = gbps_of(bytes_moved, med)
    rec.update(
        ms_median=float(med),
        ms_min=float(lo),
        ms_max=float(hi),
        gbps=gbps,
        pct_of_copy=100.0 * gbps / copy_gbps,
        pct_of_read=100.0 * gbps / read_gbps,
        items_per_s=n / (med * 1e-3),
    )
    return rec


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_document(tool, gpu, sm_count, cuda, command, warmup, iters, l2_flush_bytes,
                  copy_gbps, read_gbps, records, date=None):
    return {
        "schema": SCHEMA,
        "tool": tool,
        "gpu": gpu,
        "sm_count": int(sm_count),
        "cuda": cuda,
        "date": date or utc_now(),
        "command": command,
        "method": {"warmup": int(warmup), "iters": int(iters), "l2_flush_bytes": int(l2_flush_bytes)},
        "copy_gbps": float(copy_gbps),
        "read_gbps": float(read_gbps),
        "records": list(records),
    }


def group_tables(records):
    """[(title, [records])] in order of first appearance."""
    tables = {}
    for r in records:
        tables.setdefault(r["params"]["table"], []).append(r)
    return list(tables.items())


def md_cell(text):
    return str(text).replace("|", "\\|")  # a bare pipe would end the cell


def fmt_ms(ms):
    # Enough digits to tell runs apart at every size from 10 us to seconds.
    if ms >= 100:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.3f}"
    return f"{ms:.4f}"


def fmt_time(r, failed="FAILED"):
    if not r["verified"]:
        return failed
    return f"{fmt_ms(r['ms_median'])} ({fmt_ms(r['ms_min'])}–{fmt_ms(r['ms_max'])})"


def pct_column(recs):
    """("% of read", "pct_of_read") for tables of primitives that write (almost)
    nothing (params.ceiling "read", as onepass-bench marks them), else the copy's."""
    if any(r["params"].get("ceiling") == "read" for r in recs):
        return "% of read", "pct_of_read"
    return "% of copy", "pct_of_copy"


def format_text(doc):
    """Aligned plain-text tables, one per table title."""
    right = (False, True, True, True, True, False)
    out = []
    for title, recs in group_tables(doc["records"]):
        label, key = pct_column(recs)
        head = ("variant", "n", "ms median (min–max)", "GB/s", label, "verified")
        rows = [head]
        for r in recs:
            ok = r["verified"]
            rows.append((
                r["variant"],
                size_label(r["n"]),
                fmt_time(r, failed="-"),
                f"{r['gbps']:.0f}" if ok else "-",
                f"{r[key]:.1f}" if ok else "-",
                "yes" if ok else "FAILED",
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        out.append(title)
        for row in rows:
            cells = [c.rjust(w) if rj else c.ljust(w) for c, w, rj in zip(row, widths, right)]
            out.append("  " + "  ".join(cells).rstrip())
        out.append("")
    return "\n".join(out)


def format_markdown(doc):
    """A Markdown section: heading, run description, one table per title."""
    m = doc["method"]
    lines = [
        "## Python peers: PyTorch and CuPy",
        "",
        f"{doc['gpu']} ({doc['sm_count']} SMs), CUDA {doc['cuda']}, {doc['date']}, {doc['tool']}. "
        f"Median (min–max) of {m['iters']} timed runs after {m['warmup']} untimed ones, "
        f"L2 flushed ({m['l2_flush_bytes'] >> 20} MiB read) before each; "
        f"copy {doc['copy_gbps']:.0f} GB/s, read {doc['read_gbps']:.0f} GB/s.",
    ]
    for title, recs in group_tables(doc["records"]):
        label, key = pct_column(recs)
        lines += ["", f"### {title}", "",
                  f"| variant | n | time ms median (min–max) | GB/s | {label} |",
                  "|---|---:|---:|---:|---:|"]
        notes = []
        # A note every row of the table carries is the table's: said once, without a variant.
        shared = {r["params"].get("note") for r in recs}
        table_note = shared.pop() if len(shared) == 1 and len(recs) > 1 else None
        if table_note:
            notes.append(table_note)
        for r in recs:
            ok = r["verified"]
            gbps = f"{r['gbps']:.0f}" if ok else "–"
            pct = f"{r[key]:.1f}" if ok else "–"
            lines.append(f"| {md_cell(r['variant'])} | {size_label(r['n'])} | {fmt_time(r)} | {gbps} | {pct} |")
            error = r["params"].get("error")
            note = None if table_note else r["params"].get("note")
            for text in (note, error and f"FAILED: {error}"):
                if text and f"{r['variant']}: {text}" not in notes:
                    notes.append(f"{r['variant']}: {text}")
        if notes:
            lines.append("")
            lines += [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def version_string(v):
    """CUDA's integer versions (12080) as "12.8"."""
    return f"{v // 1000}.{(v % 1000) // 10}"


# ---------------------------------------------------------------------------
# Frameworks. Each backend times with its own events on its own current
# stream, so no cross-framework stream ordering is ever needed.


class TorchBackend:
    name = "torch"
    note = None  # nothing about torch's setup changes which kernel runs

    def __init__(self):
        import torch

        if not torch.cuda.is_available():
            raise NoDevice("torch sees no CUDA device")
        self.torch = torch
        torch.cuda.set_device(0)
        self.device = torch.device("cuda", 0)
        self.version = torch.__version__
        self._flush = None
        self._start = torch.cuda.Event(enable_timing=True)
        self._end = torch.cuda.Event(enable_timing=True)

    def device_info(self):
        p = self.torch.cuda.get_device_properties(0)
        return p.name, p.multi_processor_count, getattr(p, "L2_cache_size", 0)

    def runtime_version(self):
        return self.torch.version.cuda or "unknown"

    def driver_version(self):
        return None  # torch has no public call for it

    def free_bytes(self):
        return self.torch.cuda.mem_get_info(0)[0]

    def random_ints(self, n, lo, hi, np_dtype, seed):
        t = self.torch
        g = t.Generator(device=self.device)
        g.manual_seed(seed)
        return t.randint(lo, hi + 1, (n,), generator=g, device=self.device, dtype=getattr(t, np_dtype))

    def to_dtype(self, x, np_dtype):
        return x.to(getattr(self.torch, np_dtype))

    def div_(self, x, d):
        x.div_(d)

    def to_host(self, x):
        return x.cpu().numpy()

    def from_host(self, h):
        return self.torch.from_numpy(h).to(self.device)

    def empty_like(self, x):
        return self.torch.empty_like(x)

    def fill(self, x, value):
        x.fill_(value)

    def cumsum(self, x, out):
        # dtype kept explicitly: without it torch.cumsum turns int32 into int64.
        self.torch.cumsum(x, 0, dtype=x.dtype, out=out)

    def copy(self, src, dst):
        dst.copy_(src)  # a cudaMemcpyAsync device-to-device for equal contiguous tensors

    def rms_norm_inputs(self, rows, width, dtype, seed):
        """x (rows x width) and weight (width), |v| in [0.25, 2) with a random sign:
        never zero, as onepass-bench's inputs."""
        t = self.torch
        g = t.Generator(device=self.device)
        g.manual_seed(seed)

        def signed(shape):
            m = t.rand(shape, generator=g, device=self.device, dtype=t.float32).mul_(1.75).add_(0.25)
            sign = t.randint(0, 2, shape, generator=g, device=self.device, dtype=t.int32).mul_(2).sub_(1)
            return m.mul_(sign).to(getattr(t, RMS_NORM_DTYPES[dtype]))

        return signed((rows, width)), signed((width,))

    def rms_norm(self, x, weight, eps):
        return self.torch.nn.functional.rms_norm(x, (x.shape[-1],), weight, eps)

    def to_host_float64(self, x):
        return x.to(self.torch.float64).cpu().numpy()

    def histogram_samples(self, n, dtype, dist, lower, upper, seed):
        """n samples of `dist` in [lower, upper), as tests/support/histogram_reference.hpp
        draws them: a position t in [0, 1) per sample (uniform; the sum of four
        uniforms around 0.5 with standard deviation 1/64 for skewed; 0.5 for one_bin;
        i / n for sorted), then lower + t * (upper - lower), floored for integers.
        Generated in chunks so the float64 temporaries stay small at 2^30 samples."""
        import numpy as np

        t = self.torch
        g = t.Generator(device=self.device)
        g.manual_seed(seed)
        out = t.empty(n, dtype=getattr(t, HISTOGRAM_DTYPES[dtype]), device=self.device)
        f64 = {"dtype": t.float64, "device": self.device}
        below_one = math.nextafter(1.0, 0.0)
        for start in range(0, n, HISTOGRAM_CHUNK):
            m = min(HISTOGRAM_CHUNK, n - start)
            if dist == "uniform":
                pos = t.rand(m, generator=g, **f64)
            elif dist == "skewed":
                pos = sum(t.rand(m, generator=g, **f64) for _ in range(4))
                pos = (pos - 2.0) * (math.sqrt(3.0) / 64.0) + 0.5
            elif dist == "one_bin":
                pos = t.full((m,), 0.5, **f64)
            elif dist == "sorted":
                pos = t.arange(start, start + m, **f64) / n
            else:
                raise ValueError(f"no sample distribution {dist!r}")
            v = pos.clamp_(0.0, below_one).mul_(upper - lower).add_(lower)
            if dtype == "float":
                # The float32 nearest to a value just below `upper` may be `upper` itself.
                v = v.to(t.float32).clamp_(lower, float(np.nextafter(np.float32(upper), np.float32(lower))))
            else:
                v = v.floor_().clamp_(lower, upper - 1)
            out[start:start + m] = v.to(out.dtype)
        return out

    def histogram_op(self, variant, x, bins, lower, upper):
        """The call to time, and a note when the samples had to be converted first."""
        t = self.torch
        if variant == "torch.histc":
            return (lambda: t.histc(x, bins=bins, min=lower, max=upper)), None
        try:
            t.bincount(x[:1], minlength=bins)
        except RuntimeError as e:
            # Converting in the timed call is what a user with such samples would write.
            return ((lambda: t.bincount(x.int(), minlength=bins)),
                    f"torch.bincount rejects {x.dtype} ({e}); timed as bincount(x.int())")
        return (lambda: t.bincount(x, minlength=bins)), None

    def compaction_input(self, primitive, n, dtype, keep, runs, seed):
        """The items (see COMPACTION_RANK_BITS above) and, for select and partition, the
        threshold t: keep% of the items are below it on average."""
        t = self.torch
        g = t.Generator(device=self.device)
        g.manual_seed(seed)
        bits = COMPACTION_RANK_BITS
        if primitive == "unique":
            count = unique_run_count(n, runs)
            ranks = t.randint(0, 1 << (bits - 1), (count,), generator=g, device=self.device, dtype=t.int32)
            # + sets bit 23, which the ranks drawn below 2^23 leave clear.
            ranks.add_(t.arange(count, device=self.device, dtype=t.int32).remainder_(2).mul_(1 << (bits - 1)))
            ranks = ranks.repeat_interleave(runs)[:n]
            threshold = None
        else:
            ranks = t.randint(0, 1 << bits, (n,), generator=g, device=self.device, dtype=t.int32)
            threshold = compaction_value(compaction_threshold_rank(keep), dtype)
        if dtype in ("float", "double"):
            x = ranks.to(getattr(t, COMPACTION_DTYPES[dtype])).div_(1 << bits)  # exact: a power of two
        else:
            x = ranks.to(getattr(t, COMPACTION_DTYPES[dtype])).sub_(1 << (bits - 1))
        return x.contiguous(), threshold

    def compaction_op(self, primitive, x, threshold):
        """The call to time: its result is the kept items (a tensor), or for partition
        the two sides (a pair of tensors)."""
        t = self.torch
        if primitive == "select":
            return lambda: t.masked_select(x, x < threshold)
        if primitive == "unique":
            return lambda: t.unique_consecutive(x)

        def partition():
            m = x < threshold
            return t.masked_select(x, m), t.masked_select(x, m.logical_not())

        return partition

    def sort_op(self, x):
        """The call to time, and how to bring its result to the host as (keys,
        permutation or None)."""
        t = self.torch
        return (lambda: t.sort(x, stable=True)), (lambda r: (r[0].cpu().numpy(), r[1].cpu().numpy()))

    def read_max(self, x):
        # An int32 max reads every item and needs no widening; torch.sum(dtype=int64)
        # converts first and reached only ~18% of the copy bandwidth on an H200.
        return self.torch.amax(x)

    def scalar(self, s):
        return int(s.item())

    def equal(self, a, b):
        return bool(self.torch.equal(a, b))

    def set_flush(self, nbytes):
        self._flush = self.torch.zeros(nbytes, dtype=self.torch.uint8, device=self.device)

    def flush(self):
        # Read, not written, like onepass-bench: L2 is left without dirty lines.
        self._flush.max()

    def time_once(self, op):
        self._start.record()
        op()
        self._end.record()
        self._end.synchronize()
        return self._start.elapsed_time(self._end)

    def release(self):
        self.torch.cuda.synchronize()
        self.torch.cuda.empty_cache()


class CupyBackend:
    name = "cupy"

    def __init__(self):
        import cupy

        self.cupy = cupy
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except cupy.cuda.runtime.CUDARuntimeError as e:
            raise NoDevice(f"cupy sees no CUDA device ({e})") from None
        if count < 1:
            raise NoDevice("cupy sees no CUDA device")
        cupy.cuda.Device(0).use()
        self.version = cupy.__version__
        self._flush = None
        self._start = cupy.cuda.Event()
        self._end = cupy.cuda.Event()
        self.note = self._accelerator_note()

    def _accelerator_note(self):
        # Whether cupy.cumsum runs CUB's scan or cupy's own kernel depends on
        # CUPY_ACCELERATORS (CUB by default); record which one was timed.
        try:
            from cupy._core import _accelerator as acc

            on = acc.ACCELERATOR_CUB in acc.get_routine_accelerators()
            return "CUB accelerator on" if on else "CUB accelerator off"
        except (ImportError, AttributeError):
            env = os.environ.get("CUPY_ACCELERATORS")
            return f"CUPY_ACCELERATORS={env}" if env is not None else None

    def device_info(self):
        p = self.cupy.cuda.runtime.getDeviceProperties(0)
        name = p["name"]
        if isinstance(name, bytes):
            name = name.decode(errors="replace")
        return name, p["multiProcessorCount"], p.get("l2CacheSize", 0)

    def runtime_version(self):
        return version_string(self.cupy.cuda.runtime.runtimeGetVersion())

    def driver_version(self):
        return version_string(self.cupy.cuda.runtime.driverGetVersion())

    def free_bytes(self):
        return self.cupy.cuda.runtime.memGetInfo()[0]

    def random_ints(self, n, lo, hi, np_dtype, seed):
        rs = self.cupy.random.RandomState(seed)
        return rs.randint(lo, hi + 1, size=n, dtype=np_dtype)

    def to_dtype(self, x, np_dtype):
        return x.astype(np_dtype)

    def div_(self, x, d):
        x /= d

    def to_host(self, x):
        return self.cupy.asnumpy(x)

    def from_host(self, h):
        return self.cupy.asarray(h)

    def empty_like(self, x):
        return self.cupy.empty_like(x)

    def fill(self, x, value):
        x.fill(value)

    def cumsum(self, x, out):
        # dtype kept explicitly: like numpy, cupy.cumsum promotes int32 to int64.
        self.cupy.cumsum(x, dtype=x.dtype, out=out)

    def copy(self, src, dst):
        # cudaMemcpyAsync, as torch's copy_ and the C++ tool use, rather than
        # an elementwise kernel.
        dst.data.copy_from_device_async(src.data, src.nbytes, self.cupy.cuda.get_current_stream())

    def sort_op(self, x):
        """The call to time, and how to bring its result to the host as (keys, None)."""
        cupy = self.cupy
        return (lambda: cupy.sort(x)), (lambda r: (cupy.asnumpy(r), None))

    def read_max(self, x):
        return x.max()

    def scalar(self, s):
        return int(s.get())

    def equal(self, a, b):
        return bool(self.cupy.array_equal(a, b))

    def set_flush(self, nbytes):
        self._flush = self.cupy.zeros(nbytes, dtype=self.cupy.uint8)

    def flush(self):
        # Read, not written, like onepass-bench: L2 is left without dirty lines.
        self._flush.max()

    def time_once(self, op):
        stream = self.cupy.cuda.get_current_stream()
        self._start.record(stream)
        op()
        self._end.record(stream)
        self._end.synchronize()
        return self.cupy.cuda.get_elapsed_time(self._start, self._end)

    def release(self):
        self.cupy.cuda.Device(0).synchronize()
        self.cupy.get_default_memory_pool().free_all_blocks()
        self.cupy.get_default_pinned_memory_pool().free_all_blocks()


BACKENDS = {"torch": TorchBackend, "cupy": CupyBackend}


def driver_version_ctypes():
    """The driver version straight from libcuda, for when cupy is absent."""
    import ctypes

    try:
        lib = ctypes.CDLL("libcuda.so.1")
        v = ctypes.c_int(0)
        if lib.cuDriverGetVersion(ctypes.byref(v)) == 0:
            return version_string(v.value)
    except OSError:
        pass
    return "unknown"


def log(msg):
    print(f"peers: {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Measurement


def time_op(backend, op, warmup, iters):
    """Per-run milliseconds. The L2 flush is enqueued before the start event,
    so it is not timed, but the op then starts with a cold cache. The timed
    region also holds whatever host-side launch cost of the op the flush
    kernel did not hide: that is part of what a user of the framework pays."""
    for _ in range(warmup):
        op()
    times = []
    for _ in range(iters):
        backend.flush()
        times.append(backend.time_once(op))
    return times


def random_input(backend, dtype, n, seed):
    """Random, never all-zero input generated on the GPU with a fixed seed."""
    np_dtype = DTYPES[dtype]
    if dtype in ("int32", "int64"):
        return backend.random_ints(n, *INT_RANGE, np_dtype, seed)
    k = backend.random_ints(n, *FLOAT_K_RANGE, "int32", seed)
    x = backend.to_dtype(k, np_dtype)
    del k
    backend.div_(x, FLOAT_SCALE)  # exact: a power of two
    return x


def reference_scan(host):
    """Inclusive sum on the CPU, in the input's dtype. Integers accumulate in
    int64 and wrap on the cast back, as the GPU's int32 arithmetic would;
    floats accumulate in float64, exact for these inputs."""
    import numpy as np

    if host.dtype.kind in "iu":
        return np.cumsum(host, dtype=np.int64).astype(host.dtype)
    return np.cumsum(host, dtype=np.float64).astype(host.dtype)


def first_difference(expected, got):
    """None when equal bit for bit, else the FAILED message."""
    import numpy as np

    if expected.shape != got.shape:
        return f"expected {expected.shape[0]} items, got {got.shape[0]}"
    # Compare bit patterns: catches -0.0 vs 0.0 and makes NaN unequal to NaN.
    as_bits = np.dtype(f"u{expected.dtype.itemsize}")
    a, b = expected.view(as_bits), got.view(as_bits)
    if np.array_equal(a, b):
        return None
    i = int(np.flatnonzero(a != b)[0])
    return f"first difference at index {i}: expected {expected[i]}, got {got[i]}"


def rms_norm_first_error(x, weight, got, eps, tol):
    """None when every element of got (rows x width, float64) is within tol
    (relative) of the float64 reference x * rsqrt(mean(x^2) + eps) * weight, else
    the FAILED message naming the first element that is not."""
    import numpy as np

    scale = 1.0 / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + eps)
    expected = x * scale * weight
    # Written so that a NaN in got fails.
    bad = ~(np.abs(got - expected) <= tol * np.abs(expected))
    if not bad.any():
        return None
    r, j = divmod(int(np.flatnonzero(bad)[0]), x.shape[1])
    return (f"row {r}, column {j} (element {r * x.shape[1] + j}): expected {expected[r, j]:.9g}, "
            f"got {got[r, j]:.9g} (tolerance {tol:.3g} relative)")


def reference_histogram(host, bins, lower, upper):
    """int64 counts of `bins` even bins over [lower, upper), by the library's definition
    (onepass/detail/histogram_bins.cuh): integers exactly, (s - lower) * (bins / (upper -
    lower)) floored in float32 for floats; samples outside and NaN not counted. For
    [0, 1) and 256 bins the float scale is a power of two, so torch.histc's own
    arithmetic gives the same bins. Chunked: numpy's temporaries stay small."""
    import numpy as np

    counts = np.zeros(bins, dtype=np.int64)
    for start in range(0, host.size, HISTOGRAM_CHUNK):
        x = host[start:start + HISTOGRAM_CHUNK]
        if x.dtype.kind == "f":
            lo, hi = np.float32(lower), np.float32(upper)
            x = x[(x >= lo) & (x < hi)]
            scale = np.float32(bins) / (hi - lo)
            b = np.floor((x - lo) * scale).astype(np.int64)
            np.minimum(b, bins - 1, out=b)
        else:
            v = x.astype(np.int64)
            v = v[(v >= lower) & (v < upper)]
            b = (v - lower) * bins // (upper - lower)
        counts += np.bincount(b, minlength=bins)
    return counts


def first_count_difference(expected, got):
    """None when the counts are equal, else the FAILED message naming the first wrong
    bin. `got` may hold float counts (torch.histc); they must be whole numbers."""
    import numpy as np

    got = np.asarray(got)
    if got.shape != expected.shape:
        return f"expected {expected.shape[0]} bins, got {got.shape[0]}"
    if got.dtype.kind == "f":
        whole = np.isfinite(got) & (got == np.floor(got))
        if not whole.all():
            i = int(np.flatnonzero(~whole)[0])
            return f"bin {i}: count {got[i]} is not a whole number"
        got = got.astype(np.int64)
    wrong = np.flatnonzero(got != expected)
    if wrong.size == 0:
        return None
    i = int(wrong[0])
    return f"bin {i}: count {got[i]}, expected {expected[i]} ({wrong.size} of {expected.shape[0]} bins wrong)"


def reference_compaction(primitive, host, threshold):
    """The expected result on the CPU: the items below the threshold in order (select),
    the first item of each run of equal consecutive items (unique), or both sides of a
    stable partition as (selected, rejected)."""
    import numpy as np

    if primitive == "unique":
        first = np.empty(host.shape, dtype=bool)
        first[:1] = True
        np.not_equal(host[1:], host[:-1], out=first[1:])
        return host[first]
    kept = host < host.dtype.type(threshold)
    if primitive == "partition":
        return host[kept], host[~kept]
    return host[kept]


def first_compaction_difference(primitive, expected, got):
    """None when the result equals the reference bit for bit (count and items), else the
    FAILED message; for partition, which side differs first."""
    if primitive != "partition":
        return first_difference(expected, got)
    for side, want, have in (("selected", expected[0], got[0]), ("rejected", expected[1], got[1])):
        diff = first_difference(want, have)
        if diff is not None:
            return f"{side} items: {diff}"
    return None


def poison_value(dtype):
    # A value the reference cannot produce everywhere, so a kernel that
    # writes nothing cannot pass by finding an earlier result in reused memory.
    return float("nan") if dtype in ("float", "double") else 0x5A5A5A5A


def measure_ceilings(backend, seed, warmup, iters, flush_bytes):
    """copy_gbps, read_gbps and their two baseline records."""
    import numpy as np

    n = CEILING_N
    # Source and destination together within half of what is free, leaving
    # room for the framework's own workspace.
    free = backend.free_bytes()
    while n > 1 and 2 * 4 * n > free // 2:
        n //= 2
    table = f"ceilings: int32, {size_label(n)} items"
    log(f"{table}: copy and read with {backend.name} (L2 flush {flush_bytes >> 20} MiB)")

    src = random_input(backend, "int32", n, seed)
    dst = backend.empty_like(src)
    backend.fill(dst, poison_value("int32"))
    backend.copy(src, dst)
    copy_ok = backend.equal(src, dst)
    copy_t = time_op(backend, lambda: backend.copy(src, dst), warmup, iters)
    dst = None  # dropped, not del: the timing lambdas still name it

    expected_max = int(np.max(backend.to_host(src)))
    got_max = backend.scalar(backend.read_max(src))
    read_ok = got_max == expected_max
    # The read ceiling is a max-reduction to one int32: it reads every byte once
    # and writes nothing worth counting, so bytes = nbytes. A framework
    # reduction may fall a little short of the pure read bandwidth; the C++
    # tool measures its own read kernel, and each file is judged against its
    # own ceilings.
    read_t = time_op(backend, lambda: backend.read_max(src), warmup, iters)
    src = None
    backend.release()

    copy_bytes, read_bytes = 2 * 4 * n, 4 * n
    copy_gbps = gbps_of(copy_bytes, summarize(copy_t)[0])
    read_gbps = gbps_of(read_bytes, summarize(read_t)[0])
    if not copy_ok:
        log(f"{table}: copy: FAILED: output differs from input")
    if not read_ok:
        log(f"{table}: read: FAILED: max {got_max}, expected {expected_max}")
    copy_params, read_params = {"table": table}, {"table": table}
    if not copy_ok:
        copy_params["error"] = "output differs from input"
    if not read_ok:
        read_params["error"] = f"max {got_max}, expected {expected_max}"
    records = [
        make_record("baseline", "copy", "int32", n, copy_params, copy_bytes,
                    copy_t if copy_ok else None, copy_gbps, read_gbps),
        make_record("baseline", "read", "int32", n, read_params, read_bytes,
                    read_t if read_ok else None, copy_gbps, read_gbps),
    ]
    log(f"{table}: copy {copy_gbps:.0f} GB/s, read {read_gbps:.0f} GB/s")
    return copy_gbps, read_gbps, records, copy_ok and read_ok


def scan_notes(peer, dtype, note, backend_note=None):
    notes = [note] if note else []
    if dtype == "int32":
        notes.append(f"dtype=int32 passed: {VARIANT[peer]} promotes int32 to int64 otherwise")
    if backend_note:
        notes.append(backend_note)
    return "; ".join(notes)


def run_case(case, generator, peers, seed, warmup, iters, ceilings):
    """Records for one table and the number of failures."""
    import numpy as np

    title, dtype, n, kind, note = case
    itemsize = np.dtype(DTYPES[dtype]).itemsize
    x = random_input(generator, dtype, n, seed)
    host = generator.to_host(x)
    del x
    generator.release()
    expected = reference_scan(host)

    records, failures = [], 0
    for peer, b in peers.items():
        variant = VARIANT[peer]
        params = {"table": title, "op": "sum", "kind": kind, "passes": 1.0}
        text = scan_notes(peer, dtype, note, getattr(b, "note", None))
        if text:
            params["note"] = text
        x = out = None
        try:
            x = b.from_host(host)
            out = b.empty_like(x)
            b.fill(out, poison_value(dtype))
            b.cumsum(x, out)
            diff = first_difference(expected, b.to_host(out))
            times = None
            if diff is None:
                times = time_op(b, lambda: b.cumsum(x, out), warmup, iters)
        except Exception as e:  # noqa: BLE001 - report any framework error and go on
            log(f"{title}: {variant}: error: {type(e).__name__}: {e}")
            failures += 1
            continue
        finally:
            x = out = None  # the 2^30 cases need the memory back before the next peer
            b.release()
        if diff is not None:
            params["error"] = diff  # as onepass-bench records why a case failed
        rec = make_record("scan", variant, dtype, n, params, 2 * itemsize * n, times, *ceilings)
        records.append(rec)
        if diff is not None:
            failures += 1
            log(f"{title}: {variant}: FAILED: {diff}")
        else:
            log(f"{title}: {variant}: {fmt_time(rec)} ms, {rec['gbps']:.0f} GB/s, "
                f"{rec['pct_of_copy']:.1f}% of copy")
    return records, failures


def run_rms_norm_case(case, backend, seed, warmup, iters, ceilings):
    """One RMSNorm table (torch only): records and the number of failures. The
    output is a fresh tensor from torch, so there is nothing to poison."""
    dtype, rows, width = case
    title = rms_norm_title(dtype, rows, width)
    n = rows * width
    params = {"table": title, "rows": rows, "width": width}
    x = w = y = None
    try:
        x, w = backend.rms_norm_inputs(rows, width, dtype, seed)
        y = backend.rms_norm(x, w, RMS_NORM_EPS)
        diff = rms_norm_first_error(backend.to_host_float64(x), backend.to_host_float64(w),
                                    backend.to_host_float64(y), RMS_NORM_EPS,
                                    rms_norm_tolerance(dtype, width))
        y = None
        times = None
        if diff is None:
            times = time_op(backend, lambda: backend.rms_norm(x, w, RMS_NORM_EPS), warmup, iters)
    except Exception as e:  # noqa: BLE001 - report any framework error and go on
        log(f"{title}: {RMS_NORM_VARIANT}: error: {type(e).__name__}: {e}")
        return [], 1
    finally:
        x = w = y = None
        backend.release()
    if diff is not None:
        params["error"] = diff
    rec = make_record("rmsnorm", RMS_NORM_VARIANT, dtype, n, params, rms_norm_bytes(dtype, rows, width),
                      times, *ceilings)
    if diff is not None:
        log(f"{title}: {RMS_NORM_VARIANT}: FAILED: {diff}")
        return [rec], 1
    log(f"{title}: {RMS_NORM_VARIANT}: {fmt_time(rec)} ms, {rec['gbps']:.0f} GB/s, "
        f"{rec['pct_of_copy']:.1f}% of copy")
    return [rec], 0


def run_histogram_case(case, backend, seed, warmup, iters, ceilings):
    """One histogram table (torch only): records and the number of failures. The
    counts are a fresh tensor from torch each call, so there is nothing to poison."""
    title, variant, dtype, n, bins, dist, lower, upper, note = case
    params = {"table": title, "bins": bins, "dist": dist, "passes": 1.0, "ceiling": "read"}
    notes = [note] if note else []
    x = None
    try:
        x = backend.histogram_samples(n, dtype, dist, lower, upper, seed)
        expected = reference_histogram(backend.to_host(x), bins, lower, upper)
        op, converted = backend.histogram_op(variant, x, bins, lower, upper)
        if converted:
            notes.append(converted)
        diff = first_count_difference(expected, backend.to_host(op()))
        times = None
        if diff is None:
            times = time_op(backend, op, warmup, iters)
    except Exception as e:  # noqa: BLE001 - report any framework error and go on
        log(f"{title}: {variant}: error: {type(e).__name__}: {e}")
        return [], 1
    finally:
        x = op = None  # 2^30 samples: the memory goes back before the next table
        backend.release()
    if notes:
        params["note"] = "; ".join(notes)
    if diff is not None:
        params["error"] = diff
    rec = make_record("histogram", variant, dtype, n, params, histogram_bytes(variant, dtype, n, bins), times,
                      *ceilings)
    if diff is not None:
        log(f"{title}: {variant}: FAILED: {diff}")
        return [rec], 1
    log(f"{title}: {variant}: {fmt_time(rec)} ms, {rec['gbps']:.0f} GB/s, {rec['pct_of_read']:.1f}% of read")
    return [rec], 0


def run_compaction_case(case, backend, seed, warmup, iters, ceilings):
    """One select, unique or partition table (torch only): records and the number of
    failures. torch returns fresh tensors each call, so there is nothing to poison."""
    title, primitive, variant, dtype, n, keep, runs, note = case
    params = {"table": title}
    if primitive == "unique":
        params["runs"] = runs
    else:
        params["keep"] = keep
    x = op = None
    try:
        x, threshold = backend.compaction_input(primitive, n, dtype, keep, runs, seed)
        expected = reference_compaction(primitive, backend.to_host(x), threshold)
        selected = int((expected[0] if primitive == "partition" else expected).shape[0])
        op = backend.compaction_op(primitive, x, threshold)
        got = op()
        got = tuple(backend.to_host(g) for g in got) if primitive == "partition" else backend.to_host(got)
        diff = first_compaction_difference(primitive, expected, got)
        expected = got = None
        times = None
        if diff is None:
            times = time_op(backend, op, warmup, iters)
    except Exception as e:  # noqa: BLE001 - report any framework error and go on
        log(f"{title}: {variant}: error: {type(e).__name__}: {e}")
        return [], 1
    finally:
        x = op = None  # 2^28 items: the memory goes back before the next table
        backend.release()
    params["selected"] = selected
    params["note"] = note
    if diff is not None:
        params["error"] = diff
    rec = make_record(primitive, variant, dtype, n, params, compaction_bytes(primitive, dtype, n, selected), times,
                      *ceilings)
    if diff is not None:
        log(f"{title}: {variant}: FAILED: {diff}")
        return [rec], 1
    log(f"{title}: {variant}: {fmt_time(rec)} ms, {rec['gbps']:.0f} GB/s, {rec['pct_of_copy']:.1f}% of copy")
    return [rec], 0


def first_sort_difference(keys, got_keys, got_perm):
    """None when got_keys is keys sorted ascending and got_perm (when not None) the
    stable permutation that sorts them, else the FAILED message."""
    import numpy as np

    perm = np.argsort(keys, kind="stable")
    diff = first_difference(keys[perm], got_keys)
    if diff is not None:
        return f"keys: {diff}"
    if got_perm is not None:
        diff = first_difference(perm.astype(np.int64), got_perm.astype(np.int64))
        if diff is not None:
            return f"permutation (not stable): {diff}"
    return None


def run_radix_sort_case(case, peers, seed, warmup, iters, ceilings):
    """One radix sort table, every peer in it: records and the number of failures. Each
    call returns fresh arrays, so there is nothing to poison."""
    title, dtype, n = case
    records, failures = [], 0
    keys = None
    try:
        keys = radix_sort_keys(dtype, n, seed)
    except Exception as e:  # noqa: BLE001 - report and go on
        log(f"{title}: error drawing the keys: {type(e).__name__}: {e}")
        return [], len(peers)
    for name, backend in peers.items():
        variant = RADIX_SORT_VARIANT[name]
        params = {"table": title, "dist": "random", "order": "ascending", "values": "none", "rate": "keys",
                  "digit_passes": radix_sort_digit_passes(dtype), "note": RADIX_SORT_NOTE[name]}
        x = op = None
        try:
            x = backend.from_host(keys)
            op, to_host = backend.sort_op(x)
            got_keys, got_perm = to_host(op())
            diff = first_sort_difference(keys, got_keys, got_perm)
            got_keys = got_perm = None
            times = None
            if diff is None:
                times = time_op(backend, op, warmup, iters)
        except Exception as e:  # noqa: BLE001 - report any framework error and go on
            log(f"{title}: {variant}: error: {type(e).__name__}: {e}")
            failures += 1
            continue
        finally:
            x = op = None
            backend.release()
        if diff is not None:
            params["error"] = diff
        rec = make_record("radix_sort", variant, dtype, n, params, radix_sort_bytes(dtype, n), times, *ceilings)
        records.append(rec)
        if diff is not None:
            log(f"{title}: {variant}: FAILED: {diff}")
            failures += 1
        else:
            log(f"{title}: {variant}: {fmt_time(rec)} ms, {rec['items_per_s'] / 1e9:.2f} G keys/s, "
                f"{rec['pct_of_copy']:.1f}% of copy (modelled traffic)")
    return records, failures


# ---------------------------------------------------------------------------
# Command line


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Time torch.cumsum, cupy.cumsum, torch's RMSNorm, torch.bincount, torch.histc, "
                    "torch.masked_select and torch.unique_consecutive on GPU 0 and write onepass-bench/1 JSON.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Sizes: 2^28, 2^28+1, 268435456, 64M (K, M, G = 2^10, 2^20, 2^30).",
    )
    p.add_argument("--preset", choices=["seeds"], help="the seed tables (default without --n)")
    p.add_argument("--n", nargs="+", metavar="N", help="custom sizes (space or comma separated)")
    p.add_argument("--dtype", nargs="+", metavar="LIST",
                   help=f"custom dtypes, comma separated: {', '.join(DTYPES)} (default int32)")
    p.add_argument("--peers", default="torch,cupy", help="frameworks to time (default torch,cupy)")
    p.add_argument("--iters", type=int, default=20, help="timed runs per case (default 20)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    p.add_argument("--seed", type=int, default=SEED, help=f"input seed (default {SEED})")
    p.add_argument("--json", metavar="FILE", help="write the results here")
    p.add_argument("--markdown", metavar="FILE", help="write a Markdown section here")
    args = p.parse_args(argv)

    if args.iters < 1:
        p.error("--iters must be at least 1")
    if args.warmup < 0:
        p.error("--warmup must not be negative")
    if args.n and args.preset:
        p.error("--preset and --n are alternatives")
    if args.dtype and not args.n:
        p.error("--dtype needs --n (the seed preset fixes its own dtypes)")

    def split(values):
        return [v for item in values or [] for v in item.split(",") if v.strip()]

    try:
        args.sizes = [parse_size(s) for s in split(args.n)]
        args.dtypes = [canonical_dtype(d) for d in split(args.dtype)] or ["int32"]
    except ValueError as e:
        p.error(str(e))
    args.peer_list = split([args.peers])
    for peer in args.peer_list:
        if peer not in PEERS:
            p.error(f"unknown peer {peer!r} (known: {', '.join(PEERS)})")
    if not args.peer_list:
        p.error("--peers is empty")
    return args


def load_backends(names, requested):
    """{name: backend} of the frameworks that import and see a device, and
    whether any imported at all."""
    loaded, imported = {}, False
    for name in names:
        try:
            loaded[name] = BACKENDS[name]()
            imported = True
        except ImportError as e:
            what = f"skipping {VARIANT[name]}" if name in requested else "the ceilings use another framework"
            log(f"{name} is not importable ({e}); {what}")
        except NoDevice as e:
            imported = True
            log(str(e))
    return loaded, imported


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    cases = build_cases(args.sizes, args.dtypes)

    # torch is loaded even when only cupy is timed: when available it provides
    # the ceilings and generates the inputs, so every run measures them alike.
    wanted = list(dict.fromkeys(args.peer_list + ["torch"]))
    loaded, imported = load_backends(wanted, args.peer_list)
    if not loaded:
        log("no CUDA device available" if imported else "neither torch nor cupy is importable")
        return 2
    peers = {name: loaded[name] for name in args.peer_list if name in loaded}
    if not peers:
        log("none of the requested peers can run")
        return 2
    primary = loaded.get("torch") or next(iter(loaded.values()))

    gpu, sm_count, l2 = primary.device_info()
    if not l2:
        log(f"L2 size unknown; flushing {2 * FALLBACK_L2_BYTES >> 20} MiB")
        l2 = FALLBACK_L2_BYTES
    flush_bytes = 2 * l2
    for b in loaded.values():
        b.set_flush(flush_bytes)

    runtimes = {b.name: b.runtime_version() for b in loaded.values()}
    if len(set(runtimes.values())) == 1:
        runtime = next(iter(runtimes.values()))
    else:
        runtime = ", ".join(f"{v} ({k})" for k, v in runtimes.items())
    driver = loaded["cupy"].driver_version() if "cupy" in loaded else driver_version_ctypes()
    cuda = f"runtime {runtime}, driver {driver}"
    tool = "peers.py (" + ", ".join(f"{b.name} {b.version}" for b in loaded.values()) + ")"
    log(f"{gpu}, {sm_count} SMs, CUDA {cuda}; {tool}")

    copy_gbps, read_gbps, records, ok = measure_ceilings(primary, args.seed, args.warmup, args.iters, flush_bytes)
    failures = 0 if ok else 1
    for case in cases:
        recs, f = run_case(case, primary, peers, args.seed, args.warmup, args.iters, (copy_gbps, read_gbps))
        records += recs
        failures += f
    rms_cases = build_rms_norm_cases(args.sizes)
    if rms_cases and "torch" not in peers:
        log(f"skipping {RMS_NORM_VARIANT}: torch is not among the peers run")
    elif rms_cases:
        for case in rms_cases:
            recs, f = run_rms_norm_case(case, peers["torch"], args.seed, args.warmup, args.iters,
                                        (copy_gbps, read_gbps))
            records += recs
            failures += f
    histogram_cases = build_histogram_cases(args.sizes)
    if histogram_cases and "torch" not in peers:
        log("skipping torch.bincount and torch.histc: torch is not among the peers run")
    else:
        for case in histogram_cases:
            recs, f = run_histogram_case(case, peers["torch"], args.seed, args.warmup, args.iters,
                                         (copy_gbps, read_gbps))
            records += recs
            failures += f
    compaction_cases = build_compaction_cases(args.sizes)
    if compaction_cases and "torch" not in peers:
        log("skipping torch.masked_select and torch.unique_consecutive: torch is not among the peers run")
    else:
        for case in compaction_cases:
            recs, f = run_compaction_case(case, peers["torch"], args.seed, args.warmup, args.iters,
                                          (copy_gbps, read_gbps))
            records += recs
            failures += f

    for case in build_radix_sort_cases(args.sizes):
        recs, f = run_radix_sort_case(case, peers, args.seed, args.warmup, args.iters, (copy_gbps, read_gbps))
        records += recs
        failures += f

    command = shlex.join([os.path.basename(sys.executable)] + sys.argv)
    doc = make_document(tool, gpu, sm_count, cuda, command, args.warmup, args.iters, flush_bytes,
                        copy_gbps, read_gbps, records)

    # Self-check against the shared schema: a writer bug should fail here,
    # not later in plot.py or in the docs.
    try:
        from check_results import validate
    except ImportError:
        validate = None
    if validate:
        problems = validate(doc)
        for p in problems:
            log(f"schema: {p}")
        if problems:
            failures += 1

    print(format_text(doc))
    if args.json:
        import json

        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        log(f"wrote {args.json}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(format_markdown(doc))
        log(f"wrote {args.markdown}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
