#!/usr/bin/env python3
"""Unit tests for the stream-compaction parts of bench/peers.py (select, unique,
partition): titles (onepass-bench's, byte for byte), cases, inputs' thresholds, bytes,
the schema's view of the records, and, where numpy is installed, the references, the
checks and one table run end to end on a numpy stand-in for torch. No GPU needed.

Usage (from the repository root):
    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import io
import os
import sys
import unittest
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_results  # noqa: E402
import peers  # noqa: E402  (imports no torch, cupy or numpy at module level)

try:
    import numpy as np
except ImportError:  # the reference's tests are skipped, the rest runs
    np = None

COPY, READ = 4000.0, 4400.0
N = 1 << 28


class CompactionPureTest(unittest.TestCase):
    def test_titles_match_the_cpp_bench(self):
        # tests/bench/test_bench_cli.cpp checks the same strings against select_title,
        # unique_title and partition_title.
        self.assertEqual(peers.select_title("int32", 1 << 28, 50), "select: int32, 2^28 items, 50% kept")
        self.assertEqual(peers.select_title("double", 1000, 0), "select: double, 1000 items, 0% kept")
        self.assertEqual(peers.unique_title("int32", 1 << 28, 4), "unique: int32, 2^28 items, runs of 4")
        self.assertEqual(peers.unique_title("uint64", (1 << 28) + 1, 1024),
                         "unique: uint64, 2^28+1 items, runs of 1024")
        self.assertEqual(peers.partition_title("int32", 1 << 28, 50), "partition: int32, 2^28 items, 50% kept")
        self.assertEqual(peers.partition_title("float", 1000000, 100),
                         "partition: float, 1000000 items, 100% kept")

    def test_cases_are_the_seed_tables(self):
        self.assertEqual(peers.build_compaction_cases([1 << 20]), [])
        cases = peers.build_compaction_cases([])
        # onepass-bench's seed tables, in its order (tests/bench/test_bench_cli.cpp).
        self.assertEqual([c[0] for c in cases], [
            "select: int32, 2^28 items, 1% kept", "select: int32, 2^28 items, 50% kept",
            "select: int32, 2^28 items, 99% kept", "unique: int32, 2^28 items, runs of 1",
            "unique: int32, 2^28 items, runs of 4", "unique: int32, 2^28 items, runs of 1000",
            "partition: int32, 2^28 items, 50% kept"])
        for title, primitive, variant, dtype, n, keep, runs, note in cases:
            self.assertIn(primitive, peers.COMPACTION_PRIMITIVES)
            self.assertEqual(variant, peers.COMPACTION_VARIANT[primitive])
            self.assertEqual((dtype, n), ("int32", N))
            self.assertTrue(note, title)
            if primitive == "unique":
                self.assertIsNone(keep)
                self.assertEqual(title, peers.unique_title(dtype, n, runs))
                self.assertIn("torch.unique_consecutive", note)
            else:
                self.assertIsNone(runs)
                title_of = peers.select_title if primitive == "select" else peers.partition_title
                self.assertEqual(title, title_of(dtype, n, keep))
        partition = cases[-1]
        # The note says what was timed instead of a partition, and that it costs two passes.
        self.assertIn("torch has no partition", partition[7])
        self.assertIn("x[m] and x[~m]", partition[7])
        self.assertIn("two masked_selects", partition[7])

    def test_threshold_and_values(self):
        bits = peers.COMPACTION_RANK_BITS
        self.assertEqual(peers.compaction_threshold_rank(0), 0)
        self.assertEqual(peers.compaction_threshold_rank(50), 1 << (bits - 1))
        self.assertEqual(peers.compaction_threshold_rank(100), 1 << bits)
        self.assertEqual(peers.compaction_threshold_rank(1), round((1 << bits) / 100))
        for bad in (-1, 101, 150):
            with self.assertRaises(ValueError, msg=bad):
                peers.compaction_threshold_rank(bad)
        # Half kept: below zero for integers, below 0.5 for floats.
        self.assertEqual(peers.compaction_value(1 << (bits - 1), "int32"), 0)
        self.assertEqual(peers.compaction_value(1 << (bits - 1), "float"), 0.5)
        self.assertEqual(peers.compaction_value(0, "int64"), -(1 << (bits - 1)))
        self.assertEqual(peers.compaction_value(1 << bits, "double"), 1.0)
        # Every rank's value is exact in float32: a multiple of 2^-24 below 1.
        self.assertEqual(peers.compaction_value((1 << bits) - 1, "float") * (1 << bits), (1 << bits) - 1)

    def test_run_count(self):
        self.assertEqual(peers.unique_run_count(N, 1), N)
        self.assertEqual(peers.unique_run_count(N, 4), N // 4)
        self.assertEqual(peers.unique_run_count(N, 1000), N // 1000 + 1)  # the last run is cut short
        self.assertEqual(peers.unique_run_count(5, 1000), 1)

    def test_bytes(self):
        # select and unique: every item read, every kept item and the 8-byte count written.
        self.assertEqual(peers.compaction_bytes("select", "int32", N, N // 2), 4 * N + 4 * (N // 2) + 8)
        self.assertEqual(peers.compaction_bytes("unique", "double", 1000, 250), 8000 + 2000 + 8)
        self.assertEqual(peers.compaction_bytes("select", "int32", 1000, 0), 4000 + 8)
        # partition: every item read and written once, to one side or the other.
        self.assertEqual(peers.compaction_bytes("partition", "int32", N, 12345), 2 * 4 * N)

    def test_records_validate_and_show_percent_of_copy(self):
        recs = [peers.make_record("baseline", "copy", "int32", 1 << 20, {"table": "ceilings: int32, 2^20 items"},
                                  8 << 20, [0.01, 0.011], COPY, READ)]
        title = peers.select_title("int32", N, 50)
        params = {"table": title, "keep": 50, "selected": N // 2, "note": peers.SELECT_NOTE}
        recs.append(peers.make_record("select", "torch.masked_select", "int32", N, params,
                                      peers.compaction_bytes("select", "int32", N, N // 2), [1.0, 1.1, 1.2],
                                      COPY, READ))
        unique = {"table": peers.unique_title("int32", N, 4), "runs": 4, "selected": N // 4,
                  "note": peers.UNIQUE_NOTE}
        recs.append(peers.make_record("unique", "torch.unique_consecutive", "int32", N, unique,
                                      peers.compaction_bytes("unique", "int32", N, N // 4), [0.8], COPY, READ))
        failed = {"table": peers.partition_title("int32", N, 50), "keep": 50, "selected": N // 2,
                  "note": peers.PARTITION_NOTE,
                  "error": "rejected items: first difference at index 3: expected 5, got 7"}
        recs.append(peers.make_record("partition", "torch.masked_select x2", "int32", N, failed,
                                      peers.compaction_bytes("partition", "int32", N, N // 2), None, COPY, READ))
        doc = peers.make_document("peers.py (torch 2.9.0)", "NVIDIA H200", 132, "runtime 12.8, driver 13.0",
                                  "python3 bench/peers.py", 3, 20, 120 << 20, COPY, READ, recs)
        self.assertEqual(check_results.validate(doc), [])
        self.assertAlmostEqual(recs[1]["gbps"], (4 * N + 4 * (N // 2) + 8) / 1.1e-3 / 1e9)
        text = peers.format_text(doc)
        self.assertIn(title, text)
        self.assertIn(f"{recs[1]['pct_of_copy']:.1f}", text)  # a fraction of the copy, like scan
        md = peers.format_markdown(doc)
        self.assertIn(f"### {title}\n\n| variant | n | time ms median (min–max) | GB/s | % of copy |", md)
        self.assertIn("- torch.masked_select x2: torch has no partition", md)
        self.assertIn("FAILED: rejected items: first difference at index 3", md)


class NumpyBackend:
    """torch's compaction calls, on the CPU with numpy: enough for run_compaction_case."""

    name = "numpy"

    def __init__(self, wrong=None):
        self.wrong = wrong  # "count" or "item": results broken on purpose

    def compaction_input(self, primitive, n, dtype, keep, runs, seed):
        rng = np.random.default_rng(seed)
        bits = peers.COMPACTION_RANK_BITS
        if primitive == "unique":
            count = peers.unique_run_count(n, runs)
            ranks = rng.integers(0, 1 << (bits - 1), count) + (np.arange(count) % 2) * (1 << (bits - 1))
            ranks = np.repeat(ranks, runs)[:n]
            threshold = None
        else:
            ranks = rng.integers(0, 1 << bits, n)
            threshold = peers.compaction_value(peers.compaction_threshold_rank(keep), dtype)
        x = np.array([peers.compaction_value(int(r), dtype) for r in ranks],
                     dtype=peers.COMPACTION_DTYPES[dtype])
        return x, threshold

    def compaction_op(self, primitive, x, threshold):
        def broken(items):
            if self.wrong == "count":
                return items[:-1]
            if self.wrong == "item":
                items = items.copy()
                items[-1] += 1
            return items

        if primitive == "select":
            return lambda: broken(x[x < x.dtype.type(threshold)])
        if primitive == "unique":
            return lambda: broken(x[np.concatenate(([True], x[1:] != x[:-1]))])
        return lambda: (x[x < x.dtype.type(threshold)], broken(x[x >= x.dtype.type(threshold)]))

    def to_host(self, x):
        return x

    def flush(self):
        pass

    def time_once(self, op):
        op()
        return 0.5

    def release(self):
        pass


@unittest.skipIf(np is None, "numpy is not installed")
class CompactionReferenceTest(unittest.TestCase):
    def test_select_keeps_the_items_below_in_order(self):
        x = np.array([5, -3, 0, 7, -1, -1, 2], dtype=np.int32)
        self.assertEqual(peers.reference_compaction("select", x, 0).tolist(), [-3, -1, -1])
        self.assertEqual(peers.reference_compaction("select", x, -100).tolist(), [])
        self.assertEqual(peers.reference_compaction("select", x, 100).tolist(), x.tolist())
        f = np.array([0.5, 0.25, 0.75, 0.0], dtype=np.float32)
        self.assertEqual(peers.reference_compaction("select", f, 0.5).tolist(), [0.25, 0.0])

    def test_unique_keeps_the_first_of_each_run(self):
        x = np.array([4, 4, 4, 1, 1, 4, 9, 9], dtype=np.int32)
        self.assertEqual(peers.reference_compaction("unique", x, None).tolist(), [4, 1, 4, 9])
        self.assertEqual(peers.reference_compaction("unique", x[:1], None).tolist(), [4])
        self.assertEqual(peers.reference_compaction("unique", x[:0], None).tolist(), [])

    def test_partition_is_stable_on_both_sides(self):
        x = np.array([5, -3, 0, 7, -1, 2], dtype=np.int64)
        selected, rejected = peers.reference_compaction("partition", x, 1)
        self.assertEqual(selected.tolist(), [-3, 0, -1])
        self.assertEqual(rejected.tolist(), [5, 7, 2])

    def test_differences_name_the_side_and_the_index(self):
        a = np.array([1, 2, 3], dtype=np.int32)
        self.assertIsNone(peers.first_compaction_difference("select", a, a.copy()))
        self.assertEqual(peers.first_compaction_difference("unique", a, a[:2]), "expected 3 items, got 2")
        self.assertEqual(peers.first_compaction_difference("select", a, np.array([1, 5, 3], dtype=np.int32)),
                         "first difference at index 1: expected 2, got 5")
        self.assertIsNone(peers.first_compaction_difference("partition", (a, a[:1]), (a.copy(), a[:1].copy())))
        self.assertEqual(peers.first_compaction_difference("partition", (a, a), (a, a[::-1].copy())),
                         "rejected items: first difference at index 0: expected 1, got 3")
        self.assertEqual(peers.first_compaction_difference("partition", (a, a), (a[:1], a)),
                         "selected items: expected 3 items, got 1")

    def test_inputs_keep_about_keep_percent_and_runs_differ(self):
        b = NumpyBackend()
        for keep in (1, 50, 99):
            x, t = b.compaction_input("select", 20000, "float", keep, None, 7)
            self.assertAlmostEqual(float(np.mean(x < np.float32(t))), keep / 100, delta=0.015)
        x, t = b.compaction_input("select", 1000, "int32", 0, None, 7)
        self.assertEqual(int(np.sum(x < t)), 0)
        x, t = b.compaction_input("partition", 1000, "int32", 100, None, 7)
        self.assertEqual(int(np.sum(x < t)), 1000)
        for runs in (1, 4, 1000):
            x, _ = b.compaction_input("unique", 10001, "int32", None, runs, 7)
            self.assertEqual(x.size, 10001)
            self.assertEqual(peers.reference_compaction("unique", x, None).size, peers.unique_run_count(10001, runs))

    def test_a_table_end_to_end(self):
        with redirect_stderr(io.StringIO()):  # run_compaction_case logs each result
            self.run_tables()

    def run_tables(self):
        ceilings = (COPY, READ)
        for case in [(peers.select_title("int32", 4096, 50), "select", "torch.masked_select", "int32", 4096, 50,
                      None, peers.SELECT_NOTE),
                     (peers.unique_title("double", 4096, 4), "unique", "torch.unique_consecutive", "double", 4096,
                      None, 4, peers.UNIQUE_NOTE),
                     (peers.partition_title("float", 4096, 99), "partition", "torch.masked_select x2", "float",
                      4096, 99, None, peers.PARTITION_NOTE)]:
            title, primitive, variant, dtype, n = case[:5]
            recs, failures = peers.run_compaction_case(case, NumpyBackend(), 1, 1, 3, ceilings)
            self.assertEqual(failures, 0, title)
            (rec,) = recs
            self.assertTrue(rec["verified"])
            self.assertEqual((rec["primitive"], rec["variant"], rec["dtype"], rec["n"]), (primitive, variant, dtype, n))
            self.assertEqual(rec["params"]["table"], title)
            self.assertIn("runs" if primitive == "unique" else "keep", rec["params"])
            selected = rec["params"]["selected"]
            if primitive == "unique":
                self.assertEqual(selected, 1024)
            self.assertAlmostEqual(rec["gbps"], peers.compaction_bytes(primitive, dtype, n, selected) / 0.5e-3 / 1e9)
            for wrong in ("count", "item"):
                recs, failures = peers.run_compaction_case(case, NumpyBackend(wrong), 1, 1, 3, ceilings)
                self.assertEqual(failures, 1, (title, wrong))
                self.assertFalse(recs[0]["verified"])
                self.assertIsNone(recs[0]["ms_median"])
                self.assertIn("error", recs[0]["params"])
                if primitive == "partition":
                    self.assertTrue(recs[0]["params"]["error"].startswith("rejected items: "))
                doc = peers.make_document("peers.py (numpy)", "CPU", 1, "none", "test", 1, 3, 0, COPY, READ, recs)
                self.assertEqual(check_results.validate(doc), [])


if __name__ == "__main__":
    unittest.main()
