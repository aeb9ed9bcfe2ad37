#!/usr/bin/env python3
"""Unit tests for bench/check_results.py and the pure parts of bench/peers.py and bench/plot.py.

Usage (from the repository root; standard library only):
    python3 -m unittest bench/test_check_results.py
    python3 bench/test_check_results.py
"""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

# The bench scripts are plain files, not a package: make them importable
# however this file is run.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_results  # noqa: E402
import peers  # noqa: E402  (imports no torch, cupy or numpy at module level)
import plot  # noqa: E402  (imports matplotlib only in main)

COPY, READ = 4000.0, 4400.0


def record(variant="cub", gbps=3600.0, verified=True, **params):
    ms = 2 * 4 * (1 << 28) / (gbps * 1e9) * 1e3
    rec = {
        "primitive": "scan",
        "variant": variant,
        "dtype": "int32",
        "n": 1 << 28,
        "params": {"table": "scan: int32, 2^28 items, inclusive sum", "op": "sum", "kind": "inclusive",
                   "passes": 1.0, **params},
        "ms_median": ms,
        "ms_min": ms * 0.99,
        "ms_max": ms * 1.02,
        "gbps": gbps,
        "pct_of_copy": 100 * gbps / COPY,
        "pct_of_read": 100 * gbps / READ,
        "items_per_s": (1 << 28) / (ms * 1e-3),
        "verified": verified,
    }
    return rec


def document():
    return {
        "schema": "onepass-bench/1",
        "tool": "onepass-bench 0.1.0",
        "gpu": "NVIDIA H200",
        "sm_count": 132,
        "cuda": "runtime 13.0, driver 13.0",
        "date": "2026-11-21T23:10:05Z",
        "command": "onepass-bench --preset seeds --json out.json",
        "method": {"warmup": 3, "iters": 20, "l2_flush_bytes": 2 * 60 * 1024 * 1024},
        "copy_gbps": COPY,
        "read_gbps": READ,
        "records": [
            {**record("copy", COPY), "primitive": "baseline",
             "params": {"table": "ceilings: int32, 2^30 items"}},
            record("onepass", 3900.0),
            record("cub", 3400.0),
            {**record("broken"), **{k: None for k in check_results.TIMING_FIELDS}, "verified": False},
        ],
    }


class ValidateTest(unittest.TestCase):
    def assertProblem(self, doc, fragment):
        problems = check_results.validate(doc)
        self.assertTrue(any(fragment in p for p in problems),
                        f"no problem containing {fragment!r} in {problems}")

    def test_valid_document(self):
        self.assertEqual(check_results.validate(document()), [])

    def test_valid_document_survives_json_round_trip(self):
        self.assertEqual(check_results.validate(json.loads(json.dumps(document()))), [])

    def test_missing_top_level_field(self):
        doc = document()
        del doc["copy_gbps"]
        self.assertProblem(doc, "copy_gbps: missing required field")

    def test_missing_record_field(self):
        doc = document()
        del doc["records"][1]["items_per_s"]
        self.assertProblem(doc, "records[1].items_per_s: missing required field")

    def test_missing_table(self):
        doc = document()
        del doc["records"][2]["params"]["table"]
        self.assertProblem(doc, "records[2].params.table: missing required field")

    def test_extra_top_level_field(self):
        doc = document()
        doc["host"] = "box"
        self.assertProblem(doc, "host: unexpected field")

    def test_extra_record_field(self):
        doc = document()
        doc["records"][1]["stddev"] = 0.1
        self.assertProblem(doc, "records[1].stddev: unexpected field")

    def test_extra_method_field(self):
        doc = document()
        doc["method"]["clock"] = "locked"
        self.assertProblem(doc, "method.clock: unexpected field")

    def test_wrong_types(self):
        doc = document()
        doc["records"][3]["gbps"] = "fast"
        self.assertProblem(doc, "records[3].gbps: expected number or null, got string")
        doc = document()
        doc["sm_count"] = 132.0
        self.assertProblem(doc, "sm_count: expected integer, got number")
        doc = document()
        doc["records"][1]["verified"] = 1
        self.assertProblem(doc, "records[1].verified: expected boolean, got integer")
        doc = document()
        doc["records"][1]["n"] = True  # bool is an int in Python, not in JSON
        self.assertProblem(doc, "records[1].n: expected integer, got boolean")
        doc = document()
        doc["records"][1]["params"]["kind"] = "both"
        self.assertProblem(doc, "records[1].params.kind")
        doc = document()
        doc["records"][1]["params"]["extra"] = {"nested": 1}
        self.assertProblem(doc, "records[1].params.extra")

    def test_non_finite_number(self):
        doc = document()
        doc["records"][1]["gbps"] = float("nan")
        self.assertProblem(doc, "records[1].gbps: expected number or null")

    def test_failed_record_with_timing(self):
        doc = document()
        doc["records"][3]["ms_median"] = 1.0
        self.assertProblem(doc, "records[3].ms_median: must be null when verified is false")

    def test_verified_record_with_null_timing(self):
        doc = document()
        doc["records"][1]["gbps"] = None
        self.assertProblem(doc, "records[1].gbps: must be a number when verified is true")

    def test_inconsistent_pct_of_copy(self):
        doc = document()
        doc["records"][1]["pct_of_copy"] *= 1.01
        self.assertProblem(doc, "records[1].pct_of_copy")

    def test_pct_within_tolerance(self):
        doc = document()
        doc["records"][1]["pct_of_copy"] *= 1 + 1e-4  # a writer's rounding
        self.assertEqual(check_results.validate(doc), [])

    def test_inconsistent_pct_of_read(self):
        doc = document()
        doc["records"][2]["pct_of_read"] = doc["records"][2]["pct_of_copy"]
        self.assertProblem(doc, "records[2].pct_of_read")

    def test_min_median_max_order(self):
        doc = document()
        doc["records"][1]["ms_min"] = doc["records"][1]["ms_max"] * 2
        self.assertProblem(doc, "ms_min <= ms_median <= ms_max")

    def test_n_below_one(self):
        doc = document()
        doc["records"][1]["n"] = 0
        self.assertProblem(doc, "records[1].n: must be >= 1")

    def test_wrong_schema_string(self):
        doc = document()
        doc["schema"] = "onepass-bench/2"
        self.assertProblem(doc, 'schema: expected "onepass-bench/1"')

    def test_bad_date(self):
        doc = document()
        doc["date"] = "2026-11-21 23:10:05"
        self.assertProblem(doc, "date:")
        doc["date"] = "2026-13-21T23:10:05Z"
        self.assertProblem(doc, "date:")

    def test_nonpositive_ceiling(self):
        doc = document()
        doc["read_gbps"] = 0
        self.assertProblem(doc, "read_gbps: must be > 0")

    def test_us_per_block(self):
        doc = document()
        doc["records"][1]["params"].update(batch=4096, us_per_block=1.5)
        self.assertEqual(check_results.validate(doc), [])
        doc["records"][3]["params"].update(batch=4096, us_per_block=1.5)
        self.assertProblem(doc, "records[3].params.us_per_block: must be null or absent")

    def test_compaction_params(self):
        # select / partition carry keep (percent) and selected; unique carries runs.
        doc = document()
        doc["records"][1]["params"].update(keep=50, selected=1 << 27)
        doc["records"][2]["params"].update(runs=4, selected=1 << 26)
        doc["records"][3]["params"].update(keep=0, selected=0)
        self.assertEqual(check_results.validate(doc), [])
        doc["records"][1]["params"]["keep"] = 100
        doc["records"][2]["params"]["selected"] = 1 << 28  # everything kept: n
        self.assertEqual(check_results.validate(doc), [])
        bad = {"keep": (150, "must be from 0 to 100"), "runs": (0, "must be >= 1"),
               "selected": (-1, "must be >= 0")}
        for key, (value, fragment) in bad.items():
            doc = document()
            doc["records"][1]["params"][key] = value
            self.assertProblem(doc, f"records[1].params.{key}: {fragment}")
        doc = document()
        doc["records"][1]["params"]["selected"] = (1 << 28) + 1
        self.assertProblem(doc, "records[1].params.selected: must be <= n (268435456)")
        doc = document()
        doc["records"][1]["params"]["runs"] = 4.0
        self.assertProblem(doc, "records[1].params.runs: expected integer, got number")
        doc = document()
        doc["records"][1]["params"]["keep"] = "50%"
        self.assertProblem(doc, "records[1].params.keep: expected number, got string")

    def test_radix_sort_params(self):
        # radix_sort carries its order, its values, its key distribution and the digit
        # passes of its traffic model.
        doc = document()
        doc["records"][1]["params"].update(order="descending", values="u32", dist="low_entropy", rate="keys",
                                           digit_passes=4)
        self.assertEqual(check_results.validate(doc), [])
        bad = {"order": ("up", 'expected "ascending" or "descending"'),
               "values": ("u16", 'expected "none", "u32" or "u64"'),
               "digit_passes": (0, "must be >= 1")}
        for key, (value, fragment) in bad.items():
            doc = document()
            doc["records"][1]["params"][key] = value
            self.assertProblem(doc, f"records[1].params.{key}: {fragment}")
        doc = document()
        doc["records"][1]["params"]["digit_passes"] = 4.0
        self.assertProblem(doc, "records[1].params.digit_passes: expected integer, got number")

    def test_segmented_scan_params(self):
        # segmented_scan carries its segment distribution, the form of the row (flags,
        # offsets, by_key, begin_end_no_gaps, begin_end) and the segment count; the variant
        # is the row label.
        doc = document()
        doc["records"][1]["params"].update(dist="power_law", form="by_key", segments=1 << 20)
        doc["records"][1]["variant"] = "onepass (by key)"
        doc["records"][2]["params"].update(dist="one_segment", form="offsets", segments=1)
        doc["records"][3]["params"].update(dist="with_empty", form="flags", segments=0)
        self.assertEqual(check_results.validate(doc), [])
        doc["records"][2]["params"].update(dist="all_32", form="begin_end", segments=1 << 15)
        doc["records"][2]["variant"] = "onepass (begin/end with gaps)"
        self.assertEqual(check_results.validate(doc), [])
        doc["records"][2]["params"].update(dist="all_32", form="begin_end_no_gaps", segments=1 << 15)
        doc["records"][2]["variant"] = "onepass (begin/end)"
        self.assertEqual(check_results.validate(doc), [])
        doc["records"][2]["params"].update(dist="all_32", form="begin_end_gaps_copied", segments=1 << 15)
        doc["records"][2]["variant"] = "onepass (begin/end with gaps copied)"
        self.assertEqual(check_results.validate(doc), [])
        bad = {"form": ("keys", 'expected one of "flags", "offsets", "by_key", "begin_end", "begin_end_no_gaps", '
                                '"begin_end_gaps_copied", got "keys"'),
               "segments": (-1, "must be >= 0")}
        for key, (value, fragment) in bad.items():
            doc = document()
            doc["records"][1]["params"][key] = value
            self.assertProblem(doc, f"records[1].params.{key}: {fragment}")
        doc = document()
        doc["records"][1]["params"]["segments"] = 4.0
        self.assertProblem(doc, "records[1].params.segments: expected integer, got number")

    def test_not_an_object(self):
        self.assertEqual(check_results.validate([]), ["document: expected object, got array"])


class CommandLineTest(unittest.TestCase):
    def run_main(self, *docs):
        paths = []
        with tempfile.TemporaryDirectory() as tmp:
            for i, doc in enumerate(docs):
                path = os.path.join(tmp, f"r{i}.json")
                with open(path, "w") as f:
                    f.write(doc if isinstance(doc, str) else json.dumps(doc))
                paths.append(path)
            out = io.StringIO()
            with redirect_stdout(out):
                status = check_results.main(paths)
        return status, out.getvalue()

    def test_ok(self):
        status, out = self.run_main(document())
        self.assertEqual(status, 0)
        self.assertIn(": ok (4 records, 2 tables)", out)

    def test_one_bad_file_fails_all(self):
        bad = document()
        bad["records"][1]["gbps"] = "x"
        status, out = self.run_main(document(), bad, "{not json")
        self.assertEqual(status, 1)
        self.assertIn("r0.json: ok", out)
        self.assertIn("r1.json: records[1].gbps: expected number or null, got string", out)
        self.assertIn("r2.json: invalid JSON", out)


class PeersPureTest(unittest.TestCase):
    def test_parse_size(self):
        cases = {"2^28": 1 << 28, "2^28+1": (1 << 28) + 1, "2^20-3": (1 << 20) - 3,
                 "268435456": 268435456, "64M": 64 << 20, "4k": 4096, "1G": 1 << 30, " 7 ": 7}
        for text, n in cases.items():
            self.assertEqual(peers.parse_size(text), n, text)
        for bad in ("", "0", "2^", "-5", "1-2", "12Q", "2**3", "M"):
            with self.assertRaises(ValueError, msg=bad):
                peers.parse_size(bad)

    def test_size_label_and_title(self):
        self.assertEqual(peers.size_label(1 << 30), "2^30")
        self.assertEqual(peers.size_label(1), "1")
        self.assertEqual(peers.size_label((1 << 28) + 1), "2^28+1")
        self.assertEqual(peers.size_label((1 << 28) - 7), "2^28-7")
        self.assertEqual(peers.size_label(1000000), "1000000")
        self.assertEqual(peers.custom_title("float", 1 << 24), "scan: float, 2^24 items, inclusive sum")
        self.assertEqual(peers.custom_title("int32", 1000000), "scan: int32, 1000000 items, inclusive sum")

    def test_seed_titles(self):
        titles = [c[0] for c in peers.build_cases([], [])]
        self.assertEqual(titles, ["scan: int32, 2^30 items, inclusive sum",
                                  "scan: float, 64M items, exclusive sum",
                                  "scan: float, 16M items, inclusive sum"])

    def test_summarize_matches_cpp_median(self):
        self.assertEqual(peers.summarize([3.0, 1.0, 2.0, 4.0]), (2.5, 1.0, 4.0))
        self.assertEqual(peers.summarize([2.0, 1.0, 3.0]), (2.0, 1.0, 3.0))

    def test_built_document_validates(self):
        n = 1 << 20
        times = [0.30, 0.25, 0.27, 0.26, 0.28]
        recs = [
            peers.make_record("baseline", "copy", "int32", n, {"table": "ceilings: int32, 2^20 items"},
                              8 * n, times, COPY, READ),
            peers.make_record("scan", "torch.cumsum", "int32", n,
                              {"table": peers.custom_title("int32", n), "op": "sum", "kind": "inclusive",
                               "passes": 1.0}, 8 * n, times, COPY, READ),
            peers.make_record("scan", "cupy.cumsum", "int32", n,
                              {"table": peers.custom_title("int32", n), "op": "sum", "kind": "inclusive",
                               "passes": 1.0}, 8 * n, None, COPY, READ),
        ]
        self.assertEqual(recs[1]["ms_median"], 0.27)
        self.assertAlmostEqual(recs[1]["gbps"], 8 * n / 0.27e-3 / 1e9)
        self.assertFalse(recs[2]["verified"])
        doc = peers.make_document("peers.py (torch 2.9.0)", "NVIDIA H200", 132, "runtime 12.8, driver 13.0",
                                  "python3 bench/peers.py", 3, 20, 120 << 20, COPY, READ, recs)
        self.assertEqual(check_results.validate(json.loads(json.dumps(doc))), [])
        text = peers.format_text(doc)
        self.assertIn("FAILED", text)
        md = peers.format_markdown(doc)
        self.assertIn("| variant | n | time ms median (min–max) | GB/s | % of copy |", md)
        self.assertIn("### scan: int32, 2^20 items, inclusive sum", md)

    def test_arguments(self):
        args = peers.parse_args(["--n", "2^10,1000", "64K", "--dtype", "int32,float32"])
        self.assertEqual(args.sizes, [1024, 1000, 65536])
        self.assertEqual(args.dtypes, ["int32", "float"])
        cases = peers.build_cases(args.sizes, args.dtypes)
        self.assertEqual(len(cases), 6)
        self.assertEqual(cases[4][0], "scan: float, 1000 items, inclusive sum")
        with redirect_stderr_quiet():
            for bad in (["--n", "abc"], ["--dtype", "float"], ["--n", "8", "--preset", "seeds"],
                        ["--peers", "jax"], ["--iters", "0"]):
                with self.assertRaises(SystemExit, msg=bad):
                    peers.parse_args(bad)


class PlotPureTest(unittest.TestCase):
    def test_slugify(self):
        self.assertEqual(plot.slugify("scan: int32, 2^30 items, inclusive sum"),
                         "scan-int32-2-30-items-inclusive-sum")
        self.assertEqual(plot.slugify("ceilings: int32, 2^30 items"), "ceilings-int32-2-30-items")

    def test_tables_merge_across_files_and_skip_baselines(self):
        a, b = document(), document()
        b["records"] = [record("torch.cumsum", 1800.0)]
        tables = plot.collect_tables([a, b])
        self.assertEqual(list(tables), ["scan: int32, 2^28 items, inclusive sum"])
        entries = tables["scan: int32, 2^28 items, inclusive sum"]
        self.assertEqual([(i, r["variant"]) for i, r in entries],
                         [(0, "onepass"), (0, "cub"), (0, "broken"), (1, "torch.cumsum")])

    def test_bar_labels(self):
        small = record("sequential")
        small["n"] = 1 << 16
        entries = [(0, record("onepass")), (0, small), (0, record("cub")), (1, record("cub"))]
        self.assertEqual(plot.bar_labels(entries, ["cpp", "h100"]),
                         ["onepass", "sequential [2^16]", "cub (cpp)", "cub (h100)"])


def redirect_stderr_quiet():
    from contextlib import redirect_stderr

    return redirect_stderr(io.StringIO())


if __name__ == "__main__":
    unittest.main()
