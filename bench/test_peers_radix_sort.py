#!/usr/bin/env python3
"""Unit tests for the radix sort parts of bench/peers.py (torch.sort, cupy.sort): titles
(onepass-bench's, byte for byte), cases, the traffic model, the schema's view of the
records, and, where numpy is installed, the keys, the check and one table run end to end
on a numpy stand-in for torch and cupy. No GPU needed.

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


class RadixSortPureTest(unittest.TestCase):
    def test_titles_match_the_cpp_bench(self):
        # tests/bench/test_bench_cli.cpp checks the same strings against radix_sort_title.
        self.assertEqual(peers.radix_sort_title("uint32", 1 << 28), "radix_sort: uint32, 2^28 keys, random, ascending")
        self.assertEqual(peers.radix_sort_title("double", 1000, "u64", "range16", "descending"),
                         "radix_sort: double + u64 values, 1000 pairs, range16, descending")

    def test_cases_are_the_seed_tables(self):
        self.assertEqual(peers.build_radix_sort_cases([1 << 20]), [])
        # onepass-bench's seed preset has the same two tables (test_bench_cli.cpp).
        self.assertEqual(peers.build_radix_sort_cases([]), [
            ("radix_sort: int32, 2^28 keys, random, ascending", "int32", 1 << 28),
            ("radix_sort: int64, 2^27 keys, random, ascending", "int64", 1 << 27)])

    def test_bytes_are_the_model(self):
        # Keys read and written once per 8-bit digit: 4 digits of int32, 8 of int64.
        self.assertEqual(peers.radix_sort_digit_passes("int32"), 4)
        self.assertEqual(peers.radix_sort_digit_passes("int64"), 8)
        self.assertEqual(peers.radix_sort_bytes("int32", N), 2 * 4 * 4 * N)
        self.assertEqual(peers.radix_sort_bytes("int64", 1000), 2 * 8 * 8 * 1000)

    def test_records_validate_and_show_keys_per_second(self):
        recs = [peers.make_record("baseline", "copy", "int32", 1 << 20, {"table": "ceilings: int32, 2^20 items"},
                                  8 << 20, [0.01, 0.011], COPY, READ)]
        title = peers.radix_sort_title("int32", N)
        for name, ms in (("torch", 12.0), ("cupy", 6.7)):
            params = {"table": title, "dist": "random", "order": "ascending", "values": "none", "rate": "keys",
                      "digit_passes": 4, "note": peers.RADIX_SORT_NOTE[name]}
            recs.append(peers.make_record("radix_sort", peers.RADIX_SORT_VARIANT[name], "int32", N, params,
                                          peers.radix_sort_bytes("int32", N), [ms], COPY, READ))
        failed = {"table": title, "dist": "random", "order": "ascending", "values": "none", "rate": "keys",
                  "digit_passes": 4, "note": peers.RADIX_SORT_NOTE["torch"],
                  "error": "permutation (not stable): first difference at index 3: expected 5, got 7"}
        recs.append(peers.make_record("radix_sort", "torch.sort", "int32", N, failed, peers.radix_sort_bytes("int32", N),
                                      None, COPY, READ))
        doc = peers.make_document("peers.py (torch 2.9.0, cupy 13.6.0)", "NVIDIA H200", 132,
                                  "runtime 12.8, driver 13.0", "python3 bench/peers.py", 3, 20, 120 << 20, COPY, READ,
                                  recs)
        self.assertEqual(check_results.validate(doc), [])
        self.assertAlmostEqual(recs[2]["items_per_s"], N / 6.7e-3)
        self.assertIn(title, peers.format_text(doc))
        self.assertIn("FAILED: permutation (not stable)", peers.format_markdown(doc))


class NumpyBackend:
    """torch.sort / cupy.sort on the CPU with numpy: enough for run_radix_sort_case."""

    def __init__(self, name, broken=False):
        self.name = name
        self.broken = broken

    def from_host(self, h):
        return h.copy()

    def sort_op(self, x):
        def op():
            perm = np.argsort(x, kind="stable")
            keys = x[perm]
            if self.broken:  # right keys, wrong permutation
                perm = perm.copy()
                perm[[0, 1]] = perm[[1, 0]]
            return keys, perm
        with_perm = self.name == "torch"
        return op, (lambda r: (r[0], r[1] if with_perm else None))

    def flush(self):
        pass

    def time_once(self, op):
        op()
        return 0.5

    def release(self):
        pass


@unittest.skipIf(np is None, "numpy is not installed")
class RadixSortReferenceTest(unittest.TestCase):
    def test_keys_span_the_range(self):
        keys = peers.radix_sort_keys("int32", 100000, 7)
        self.assertEqual(keys.dtype, np.int32)
        self.assertLess(keys.min(), -(1 << 30))
        self.assertGreater(keys.max(), 1 << 30)
        self.assertTrue(np.array_equal(keys, peers.radix_sort_keys("int32", 100000, 7)))
        self.assertEqual(peers.radix_sort_keys("int64", 10, 1).dtype, np.int64)

    def test_the_check_names_keys_then_permutation(self):
        keys = np.array([3, 1, 3, 2], dtype=np.int32)
        self.assertIsNone(peers.first_sort_difference(keys, np.array([1, 2, 3, 3], np.int32), np.array([1, 3, 0, 2])))
        self.assertIsNone(peers.first_sort_difference(keys, np.array([1, 2, 3, 3], np.int32), None))
        self.assertIn("keys: first difference at index 2",
                      peers.first_sort_difference(keys, np.array([1, 2, 2, 3], np.int32), None))
        # Right keys, equal keys out of input order: not stable.
        self.assertIn("permutation (not stable): first difference at index 2",
                      peers.first_sort_difference(keys, np.array([1, 2, 3, 3], np.int32), np.array([1, 3, 2, 0])))

    def test_a_table_end_to_end(self):
        case = ("radix_sort: int32, 1000 keys, random, ascending", "int32", 1000)
        with redirect_stderr(io.StringIO()):
            recs, failures = peers.run_radix_sort_case(
                case, {"torch": NumpyBackend("torch"), "cupy": NumpyBackend("cupy")}, 5, 1, 3, (COPY, READ))
        self.assertEqual(failures, 0)
        self.assertEqual([r["variant"] for r in recs], ["torch.sort", "cupy.sort"])
        self.assertTrue(all(r["verified"] for r in recs))
        self.assertEqual(recs[0]["ms_median"], 0.5)
        with redirect_stderr(io.StringIO()):
            recs, failures = peers.run_radix_sort_case(case, {"torch": NumpyBackend("torch", broken=True)}, 5, 1, 3,
                                                       (COPY, READ))
        self.assertEqual(failures, 1)
        self.assertFalse(recs[0]["verified"])
        self.assertIn("not stable", recs[0]["params"]["error"])


if __name__ == "__main__":
    unittest.main()
