#!/usr/bin/env python3
"""The README's performance table, computed from the committed results in bench/results/.

Usage (from anywhere; standard library only):
    python3 bench/readme_table.py                    # print the table (markdown)
    python3 bench/readme_table.py --check README.md  # exit 1 if README.md's table differs
    python3 bench/readme_table.py --write README.md  # rewrite README.md's table in place

README.md holds the table between the lines `<!-- perf-table:begin -->` and
`<!-- perf-table:end -->`, and the Python package's table (python_table, from
bench/python_bench.py's <gpu>-python.json) between `<!-- python-table:begin -->` and
`<!-- python-table:end -->`; nothing else in the file is touched.

Where each figure comes from. A row names one table of onepass-bench ("scan: int32, 2^30
items, inclusive sum") and the variant that is onepass's production path. For each GPU
column (h100, h200) every bench/results/<gpu>.json and <gpu>-*.json written by
onepass-bench is a candidate; the newest run (its "date") that holds the row's onepass
record at the row's n gives the onepass figure, and CUB's figure comes from that same
file, so the ratio is always measured in one process. The PyTorch figure comes from the
newest file written by bench/peers.py (<gpu>-peers.json) holding that table. A missing
file or record shows "—"; a record that failed verification shows "FAILED". So when
scripts/bench-results.sh writes a fresh <gpu>.json and <gpu>-peers.json, their figures
replace older ones at the next --write.

Ratios:
  % of ceiling   the record's pct_of_copy (or pct_of_read, for reduce and histogram),
                 which the writer computed against the copy (read) measured in its run.
  x CUB          onepass's % over CUB's %, both from one run (the same bytes and ceiling,
                 so it is CUB's time over onepass's). Where a row names two CUB variants
                 (radix sort: CUB given an int count and a 64-bit count), the faster one.
  x PyTorch      peers run in their own process with their own copy (read) measurement:
                 (onepass % of its run's ceiling) / (torch % of its run's ceiling), for the
                 same primitive, dtype and n.
"""

import argparse
import glob
import json
import os
import sys
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
LINK_BASE = "bench/results"  # links are relative to README.md, at the repository root

BEGIN = "<!-- perf-table:begin -->"
END = "<!-- perf-table:end -->"
PY_BEGIN = "<!-- python-table:begin -->"
PY_END = "<!-- python-table:end -->"
MISSING = "—"

# (column title, file prefix): the GPU columns, in order.
GPUS = (("H100", "h100"), ("H200", "h200"))

# label: the row's first cell; ceiling: "copy" or "read" (which pct_* field is shown);
# primitive, dtype, n, table: which records the row reads (table is params.table, the
# title onepass-bench and peers.py share); onepass: the production variant's name in that
# table; cub: CUB's variants there (the fastest is used), () for none; torch: the PyTorch
# peer's variant in peers.py's table of the same title, None for none.
Row = namedtuple("Row", "label ceiling primitive dtype n table onepass cub torch")

ROWS = (
    Row("scan, int32, 2^30, inclusive sum", "copy", "scan", "int32", 1 << 30,
        "scan: int32, 2^30 items, inclusive sum", "onepass", ("cub",), "torch.cumsum"),
    Row("reduce, int32, 2^30, sum", "read", "reduce", "int32", 1 << 30,
        "reduce: int32, 2^30 items, sum", "onepass", ("cub",), None),
    Row("histogram, uint8, 2^30, 256 bins", "read", "histogram", "uint8", 1 << 30,
        "histogram: uint8, 2^30 samples, 256 bins, uniform", "onepass", ("cub",), "torch.bincount"),
    Row("histogram, uint32, 2^30, 4096 bins", "read", "histogram", "uint32", 1 << 30,
        "histogram: uint32, 2^30 samples, 4096 bins, uniform", "onepass", ("cub",), None),
    Row("select, int32, 2^28, half kept", "copy", "select", "int32", 1 << 28,
        "select: int32, 2^28 items, 50% kept", "onepass", ("cub",), "torch.masked_select"),
    Row("radix sort, uint32 keys, 2^28", "copy", "radix_sort", "uint32", 1 << 28,
        "radix_sort: uint32, 2^28 keys, random, ascending", "onepass", ("cub", "cub_64bit_count"), None),
    Row("radix sort, uint32 + uint32 pairs, 2^28", "copy", "radix_sort", "uint32", 1 << 28,
        "radix_sort: uint32 + u32 values, 2^28 pairs, random, ascending", "onepass",
        ("cub", "cub_64bit_count"), None),
    Row("radix sort, uint64 keys, 2^27", "copy", "radix_sort", "uint64", 1 << 27,
        "radix_sort: uint64, 2^27 keys, random, ascending", "onepass", ("cub", "cub_64bit_count"), None),
    Row("radix sort, int32 keys, 2^28", "copy", "radix_sort", "int32", 1 << 28,
        "radix_sort: int32, 2^28 keys, random, ascending", "onepass", ("cub", "cub_64bit_count"), "torch.sort"),
    Row("segmented scan, int32, 2^28, head flags", "copy", "segmented_scan", "int32", 1 << 28,
        "segmented_scan: int32, 2^28 items, inclusive sum, uniform_1_1000", "onepass (flags)", (), None),
    Row("scan by key, int32, 2^28", "copy", "segmented_scan", "int32", 1 << 28,
        "segmented_scan: int32, 2^28 items, inclusive sum, uniform_1_1000", "onepass (by key)",
        ("cub (by key)",), None),
)

FOOTNOTES = (
    "Each figure links to the committed run it comes from: for each GPU, the newest file in "
    "bench/results/ that holds the row's table. Inputs: random keys and items, uniform histogram "
    "samples, segments of 1-1000 items.",
    "**% of copy / read**: onepass's rate as a percentage of the device-to-device copy (bytes "
    "read + written) or of the read-only pass, measured in the same run. A radix sort's rate "
    "counts a model's traffic, every key and value read and written once per 8-bit digit; a "
    "segmented scan's counts the segment description too ([docs/bench.md](docs/bench.md)).",
    "**×CUB**: onepass's rate over CUB's in the same run. Radix sort: the faster of CUB's two "
    "calls (given an `int` or a 64-bit count); scan by key: `cub::DeviceScan::InclusiveScanByKey`; "
    "blank for head flags, which CUB has no call for.",
    "**×PyTorch**: the peers (`bench/peers.py`: torch.cumsum, torch.bincount, "
    "torch.masked_select, torch.sort) run in their own process with their own copy and read "
    "measurements, so this is (onepass % of its run's copy or read) / (torch % of its run's "
    "copy or read), for the same primitive, dtype and n. Blank: no PyTorch peer in the bench.",
    f"{MISSING}: no committed result for that GPU yet (`scripts/bench-results.sh` writes "
    "`<gpu>.json` and `<gpu>-peers.json`).",
)


# The Python table (README's "Python" section): bench/python_bench.py's tables, where
# onepass_py, torch and cupy run in one process, so every ratio is a ratio of times.
PyRow = namedtuple("PyRow", "label ceiling table torch cupy")
PY_ROWS = (
    PyRow("cumsum, int32, 2^28", "copy", "scan: int32, 2^28 items, inclusive sum", "torch", "cupy"),
    PyRow("sum, int32, 2^28", "read", "reduce: int32, 2^28 items, sum", "torch", "cupy"),
    PyRow("sort, int32 keys, 2^28", "copy", "radix_sort: int32 keys, 2^28 items", "torch", "cupy"),
    PyRow("histogram, uint8, 2^28, 256 bins", "read", "histogram: uint8, 2^28 items, 256 bins", "torch", "cupy"),
    PyRow("masked_select, int32, 2^28, half kept", "copy", "select: int32, 2^28 items, half kept (masked_select)",
          "torch", "cupy"),
    PyRow("unique_consecutive, int32, 2^28, runs of 4", "copy",
          "unique: int32, 2^28 items, runs of 4 (unique_consecutive)", "torch", None),
    PyRow("rms_norm, float32, 16384 × 4096", "copy", "rms_norm: float32, 16384 x 4096", "torch", None),
)
PY_FOOTNOTES = (
    "onepass_py: the package's call as a user writes it (results allocated per call), timed in one "
    "process with torch and CuPy on the same arrays (`bench/python_bench.py`): % of that run's copy or "
    "read, and ×torch / ×CuPy its speed over theirs (torch.cumsum, torch.sum, torch.sort(stable=True), "
    "torch.bincount, torch.masked_select, torch.unique_consecutive, torch's rms_norm; cupy.cumsum, "
    "cupy.sum, cupy.sort, cupy.bincount, boolean indexing). Blank: no such call in that library.",
)


# --- reading the results ----------------------------------------------------------------

ResultFile = namedtuple("ResultFile", "path date is_peers records")


def load_python_results(results_dir, prefix):
    """The <prefix>-python*.json files (bench/python_bench.py's), newest first."""
    files = []
    for path in sorted(glob.glob(os.path.join(results_dir, prefix + "-python*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        files.append(ResultFile(path, doc.get("date", ""), False, doc.get("records", [])))
    files.sort(key=lambda r: (r.date, os.path.basename(r.path)), reverse=True)
    return files


def load_results(results_dir, prefix):
    """The results files of one GPU (<prefix>.json, <prefix>-*.json), newest first."""
    paths = glob.glob(os.path.join(results_dir, prefix + ".json"))
    paths += glob.glob(os.path.join(results_dir, prefix + "-*.json"))
    files = []
    for path in sorted(set(paths)):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("tool", "").startswith("python_bench.py"):
            continue  # the Python table's (load_python_results)
        files.append(ResultFile(path, doc.get("date", ""), doc.get("tool", "").startswith("peers.py"),
                                doc.get("records", [])))
    # Newest first; the name breaks ties so the choice never depends on the file system.
    files.sort(key=lambda r: (r.date, os.path.basename(r.path)), reverse=True)
    return files


def find_record(result_file, row, variant):
    """The record of `variant` in the row's table at the row's n, or None."""
    for rec in result_file.records:
        if (rec.get("primitive") == row.primitive and rec.get("dtype") == row.dtype and rec.get("n") == row.n
                and rec.get("variant") == variant and rec.get("params", {}).get("table") == row.table):
            return rec
    return None


def pct(rec, ceiling):
    """The record's percentage of its run's ceiling, or None when it failed verification."""
    if rec is None or not rec.get("verified"):
        return None
    return rec["pct_of_" + ceiling]


Cell = namedtuple("Cell", "pct x_cub x_torch onepass_file peers_file failed")


def row_cell(row, files):
    """The figures of one row on one GPU from that GPU's files (load_results' order)."""
    ours = next(((f, r) for f in files if not f.is_peers for r in [find_record(f, row, row.onepass)] if r), None)
    if ours is None:
        return Cell(None, None, None, None, None, False)
    f, rec = ours
    mine = pct(rec, row.ceiling)
    if mine is None:
        return Cell(None, None, None, f.path, None, True)
    cubs = [p for p in (pct(find_record(f, row, v), row.ceiling) for v in row.cub) if p]
    x_cub = mine / max(cubs) if cubs else None
    x_torch, peers_path = None, None
    if row.torch:
        theirs = next(((p, r) for p in files if p.is_peers for r in [find_record(p, row, row.torch)] if r), None)
        if theirs is not None:
            peers_path = theirs[0].path
            t = pct(theirs[1], row.ceiling)
            x_torch = mine / t if t else None
    return Cell(mine, x_cub, x_torch, f.path, peers_path, False)


# --- formatting --------------------------------------------------------------------------

def link(text, path, link_base):
    """text linked to the results file at path: its markdown twin where one exists."""
    md = os.path.splitext(path)[0] + ".md"
    target = md if os.path.exists(md) else path
    return f"[{text}]({link_base}/{os.path.basename(target)})"


def format_cells(row, cell, link_base):
    if cell.failed:
        return [link("FAILED", cell.onepass_file, link_base), MISSING, "" if row.torch is None else MISSING]
    if cell.pct is None:
        return [MISSING, MISSING if row.cub else "", MISSING if row.torch else ""]
    out = [link(f"{cell.pct:.1f}%", cell.onepass_file, link_base)]
    out.append(f"{cell.x_cub:.2f}×" if cell.x_cub is not None else (MISSING if row.cub else ""))
    if row.torch is None:
        out.append("")
    elif cell.x_torch is None:
        out.append(MISSING)
    else:
        out.append(link(f"{cell.x_torch:.2f}×", cell.peers_file, link_base))
    return out


def table(results_dir=RESULTS, link_base=LINK_BASE):
    """The markdown table and its footnotes, as the README holds them (no markers)."""
    files = {prefix: load_results(results_dir, prefix) for _, prefix in GPUS}
    head = ["primitive", "% of"]
    for name, _ in GPUS:
        head += [name, "×CUB", "×PyTorch"]
    lines = ["| " + " | ".join(head) + " |",
             "|---|---|" + "---:|---:|---:|" * len(GPUS)]
    for row in ROWS:
        cells = [row.label, row.ceiling]
        for _, prefix in GPUS:
            cells += format_cells(row, row_cell(row, files[prefix]), link_base)
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"- {note}" for note in FOOTNOTES]
    return "\n".join(lines) + "\n"


def python_table(results_dir=RESULTS, link_base=LINK_BASE):
    """The README's Python table and its footnote (no markers)."""
    files = {prefix: load_python_results(results_dir, prefix) for _, prefix in GPUS}
    head = ["call", "% of"]
    for name, _ in GPUS:
        head += [name, "×torch", "×CuPy"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|---:|---:|" * len(GPUS)]
    for row in PY_ROWS:
        cells = [row.label, row.ceiling]
        for _, prefix in GPUS:
            found = None
            for f in files[prefix]:
                recs = {r.get("variant"): r for r in f.records if r.get("params", {}).get("table") == row.table}
                if "onepass_py" in recs:
                    found = (f, recs)
                    break
            if found is None:
                cells += [MISSING, MISSING, MISSING if row.cupy else ""]
                continue
            f, recs = found
            mine = pct(recs["onepass_py"], row.ceiling)
            if mine is None:
                cells += [link("FAILED", f.path, link_base), MISSING, MISSING if row.cupy else ""]
                continue
            cells.append(link(f"{mine:.1f}%", f.path, link_base))
            for peer in (row.torch, row.cupy):
                if peer is None:
                    cells.append("")
                    continue
                theirs = pct(recs.get(peer), row.ceiling)
                cells.append(f"{mine / theirs:.2f}×" if theirs else MISSING)
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"- {note}" for note in PY_FOOTNOTES]
    return "\n".join(lines) + "\n"


# --- the README --------------------------------------------------------------------------

def split_readme(text, begin=BEGIN, end=END):
    """(before, table, after) around the markers; ValueError if they are not there once each."""
    if text.count(begin) != 1 or text.count(end) != 1:
        raise ValueError(f"expected one '{begin}' and one '{end}' line")
    before, rest = text.split(begin, 1)
    inside, after = rest.split(end, 1)
    if not before.endswith("\n") and before:
        raise ValueError(f"'{begin}' must start a line")
    return before + begin + "\n", inside.lstrip("\n"), end + after


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", metavar="README", help="exit 1 if README's table differs from the results")
    mode.add_argument("--write", metavar="README", help="rewrite README's table from the results")
    p.add_argument("--results", default=RESULTS, help="the results folder (default bench/results)")
    args = p.parse_args(argv)

    tables = ((BEGIN, END, table(args.results), "performance table"),
              (PY_BEGIN, PY_END, python_table(args.results), "Python table"))
    if not (args.check or args.write):
        sys.stdout.write(tables[0][2] + "\n" + tables[1][2])
        return 0
    path = args.check or args.write
    with open(path, encoding="utf-8") as f:
        text = f.read()
    status = 0
    for begin, end, want, what in tables:
        try:
            before, have, after = split_readme(text, begin, end)
        except ValueError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
        if args.check:
            if have == want:
                print(f"{path}: the {what} matches bench/results/")
            else:
                print(f"{path}: the {what} differs from bench/results/; "
                      f"run: python3 bench/readme_table.py --write {path}", file=sys.stderr)
                status = 1
        else:
            text = before + want + after
            print(f"{path}: {what} written")
    if args.write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
