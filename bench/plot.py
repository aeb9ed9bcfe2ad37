#!/usr/bin/env python3
"""Turn "onepass-bench/1" results files into PNG bar charts, one per table.

Usage:
    python3 bench/plot.py RESULTS.json [MORE.json ...] --out DIR

Records from all files that share a table title (params.table) go in one chart,
in file order, then record order; tables made only of "baseline" records (the
copy/read ceilings) get no chart of their own. Each bar is a variant's GB/s,
annotated with its GB/s and its % of its table's ceiling as recorded: % of read
where the record's params.ceiling is "read" (reduce, histogram), else % of copy
(each file's percentage is against the ceiling measured in that file's own run).
A dashed line marks the copy and a dotted line the read ceiling of the first file contributing to the chart.
Tables whose records carry params.us_per_block or params.batch (batched
single-block cases) plot nanoseconds per block instead (from us_per_block, else
ms_median * 1e6 / batch), as onepass-bench's table does, without ceilings. FAILED records appear as a
label without a bar.

Charts are written to DIR as the slugified table title plus ".png"
("scan: int32, 2^30 items, inclusive sum" -> scan-int32-2-30-items-inclusive-sum.png);
the paths written are printed. Needs matplotlib; every input file is first
checked with check_results.validate and an invalid one stops the run (exit 1).
"""

import argparse
import os
import re
import sys
from collections import Counter

# Colours by family, so the library, CUB and the Python peers are told apart
# at a glance in charts with twenty ladder rungs.
COLOURS = (
    (lambda v: v.startswith("onepass"), "#1f5fa8"),
    (lambda v: v.startswith("cub"), "#e07b1a"),
    (lambda v: v.startswith(("torch.", "cupy.")), "#3a9a4a"),
    (lambda v: True, "#8aa6c8"),
)
BASELINE_COLOUR = "#9a9a9a"


def slugify(title):
    """Lowercase, every run of non-alphanumerics one "-", none at the ends."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "table"


def size_label(n):
    """"2^k" for powers of two, the plain number otherwise."""
    if n >= 1 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def collect_tables(docs):
    """{title: [(file index, record)]} in order of first appearance, skipping
    tables whose records are all baselines."""
    tables = {}
    for i, doc in enumerate(docs):
        for rec in doc["records"]:
            tables.setdefault(rec["params"]["table"], []).append((i, rec))
    return {t: e for t, e in tables.items() if any(r["primitive"] != "baseline" for _, r in e)}


def bar_labels(entries, names):
    """Axis label per bar: the variant, "[n]" when n is not the table's usual
    one, and the file's name when the same label would otherwise repeat
    (two runs of the same tool in one chart)."""
    # most_common keeps first-seen order among equal counts, so ties go to
    # the n that appears first.
    common_n = Counter(r["n"] for _, r in entries).most_common(1)[0][0]
    labels = []
    for _, r in entries:
        label = r["variant"]
        if r["n"] != common_n:
            label += f" [{size_label(r['n'])}]"
        labels.append(label)
    counts = Counter(labels)
    return [f"{l} ({names[i]})" if counts[l] > 1 else l for l, (i, _) in zip(labels, entries)]


def us_per_block(rec):
    """Microseconds per block of a batched record, or None."""
    params = rec["params"]
    value = params.get("us_per_block")
    if value is None and rec["verified"] and params.get("batch"):
        value = rec["ms_median"] * 1e3 / params["batch"]
    return value


def subtitle(docs, used):
    """GPU and date of every file in the chart, dates grouped under their GPU."""
    by_gpu = {}
    for i in used:
        by_gpu.setdefault(docs[i]["gpu"], []).append(docs[i]["date"])
    return "; ".join(f"{gpu}, {', '.join(dict.fromkeys(dates))}" for gpu, dates in by_gpu.items())


def fmt_gbps(v):
    return f"{v:,.1f}" if v < 10 else f"{v:,.0f}"


def fmt_pct(p):
    # Slow ladder rungs sit far below 1% of copy; keep two digits there.
    return f"{p:.2g}" if p < 1 else f"{p:.1f}"


def colour(rec):
    if rec["primitive"] == "baseline":
        return BASELINE_COLOUR
    return next(c for match, c in COLOURS if match(rec["variant"]))


def plot_table(plt, title, entries, docs, names, path):
    # onepass-bench marks batched tables with params.batch and may leave
    # us_per_block to the reader, so either key selects the per-block chart.
    batched = any("us_per_block" in r["params"] or "batch" in r["params"] for _, r in entries)
    labels = bar_labels(entries, names)
    used = list(dict.fromkeys(i for i, _ in entries))
    first = docs[used[0]]

    values = []
    for _, r in entries:
        if not r["verified"]:
            values.append(None)
        else:
            per_block = us_per_block(r) if batched else None
            values.append(r["gbps"] if not batched else None if per_block is None else 1e3 * per_block)

    height = max(3.0, 1.6 + 0.38 * len(entries))
    fig, ax = plt.subplots(figsize=(11, height), constrained_layout=True)
    ys = range(len(entries))

    ceilings = [] if batched else [first["copy_gbps"], first["read_gbps"]]
    top = max([v for v in values if v is not None] + ceilings + [1e-9])
    # Room on the right for the annotations, which are drawn past the bars.
    ax.set_xlim(0, top * 1.32)
    pad = top * 0.01

    for y, (_, r), v in zip(ys, entries, values):
        if v is None:
            reason = "FAILED" if not r["verified"] else "no us_per_block"
            ax.text(pad, y, reason, va="center", ha="left", color="#c0392b", fontweight="bold")
            continue
        ax.barh(y, v, color=colour(r), height=0.7)
        if batched:
            note = f"{v:.3g} ns/block"
        else:
            ceiling = "read" if r.get("params", {}).get("ceiling") == "read" else "copy"
            note = f"{fmt_gbps(v)} GB/s  ({fmt_pct(r['pct_of_' + ceiling])}% of {ceiling})"
        # A white backing keeps the ceiling lines from striking through the text.
        ax.text(v + pad, y, note, va="center", ha="left", fontsize=9,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0})

    if not batched:
        # With several files the lines are one run's ceilings: say whose.
        whose = f" ({names[used[0]]})" if len(used) > 1 else ""
        ax.axvline(first["copy_gbps"], color="#333333", linestyle="--", linewidth=1.2,
                   label=f"copy {fmt_gbps(first['copy_gbps'])} GB/s{whose}")
        ax.axvline(first["read_gbps"], color="#333333", linestyle=":", linewidth=1.4,
                   label=f"read {fmt_gbps(first['read_gbps'])} GB/s{whose}")
        fig.legend(loc="outside lower center", ncol=2, frameon=False)
        ax.set_xlabel("GB/s (minimum bytes moved / median time; higher is better)")
    else:
        ax.set_xlabel("ns per block (median launch time / blocks, which run concurrently; lower is better)")

    ax.set_yticks(list(ys), labels)
    # Set rather than autoscaled: a FAILED row has no bar to reserve its
    # space. Reversed, so the first record is on top as in the tables.
    ax.set_ylim(len(entries) - 0.5, -0.5)
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.suptitle(title, fontsize=13, fontweight="bold")
    ax.set_title(subtitle(docs, used), fontsize=9, color="#555555")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def load(paths):
    """The documents, or exit 1 after printing every problem found."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from check_results import check_file

    docs, bad = [], False
    for path in paths:
        problems, doc = check_file(path)
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        bad = bad or bool(problems)
        docs.append(doc)
    if bad:
        print("plot: invalid input; nothing written", file=sys.stderr)
        sys.exit(1)
    return docs


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot onepass-bench/1 results as one PNG bar chart per table.")
    parser.add_argument("files", nargs="+", metavar="RESULTS.json")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for the PNG files (created)")
    args = parser.parse_args(argv)

    docs = load(args.files)
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only; never needs a display
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot: matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return 2

    # Short names for labels; runs kept as dir/results.json on each machine
    # share a basename, so fall back to the path for those.
    names = [os.path.splitext(os.path.basename(p))[0] for p in args.files]
    names = [os.path.splitext(p)[0] if names.count(n) > 1 else n for n, p in zip(names, args.files)]
    tables = collect_tables(docs)
    if not tables:
        print("plot: no tables to plot (only baselines)", file=sys.stderr)
        return 0
    os.makedirs(args.out, exist_ok=True)
    taken = set()
    for title, entries in tables.items():
        slug = base = slugify(title)
        k = 2
        while slug in taken:  # two titles that differ only in punctuation
            slug, k = f"{base}-{k}", k + 1
        taken.add(slug)
        path = os.path.join(args.out, slug + ".png")
        plot_table(plt, title, entries, docs, names, path)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
