#!/usr/bin/env python3
"""Unit tests for the histogram parts of bench/peers.py: titles (onepass-bench's, byte
for byte), cases, bytes, the "% of read" column, the numpy reference and count check
(skipped where numpy is missing) and the schema's view of the records. No GPU needed.

Usage (from the repository root):
    python3 -m unittest discover -s bench -p 'test_*.py'
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_results  # noqa: E402
import peers  # noqa: E402  (imports no torch, cupy or numpy at module level)

try:
    import numpy as np
except ImportError:  # the reference's tests are skipped, the rest runs
    np = None

COPY, READ = 4000.0, 4400.0


class HistogramPureTest(unittest.TestCase):
    def test_titles_match_the_cpp_bench(self):
        # tests/bench/test_bench_cli.cpp checks the same strings against histogram_title.
        self.assertEqual(peers.histogram_title("uint8", 1 << 30, 256, "uniform"),
                         "histogram: uint8, 2^30 samples, 256 bins, uniform")
        self.assertEqual(peers.histogram_title("uint32", (1 << 28) + 1, 65536, "one_bin"),
                         "histogram: uint32, 2^28+1 samples, 65536 bins, one_bin")
        self.assertEqual(peers.histogram_title("float", 1000, 1, "sorted"),
                         "histogram: float, 1000 samples, 1 bins, sorted")

    def test_cases_only_in_the_seed_preset(self):
        self.assertEqual(peers.build_histogram_cases([1 << 20]), [])
        cases = peers.build_histogram_cases([])
        titles = [c[0] for c in cases]
        # The four 256-bin uint8 tables and the published 10M one, as onepass-bench's seeds.
        for d in ("uniform", "skewed", "one_bin", "sorted"):
            self.assertIn(f"histogram: uint8, 2^30 samples, 256 bins, {d}", titles)
        self.assertIn("histogram: uint8, 10M samples, 256 bins, uniform", titles)
        self.assertIn("histogram: int32, 2^30 samples, 256 bins, uniform", titles)
        self.assertIn("histogram: float, 2^30 samples, 256 bins, uniform", titles)
        self.assertEqual(len(set(titles)), len(titles))
        for title, variant, dtype, n, bins, dist, lower, upper, note in cases:
            self.assertEqual(bins, 256, title)
            self.assertIn(dist, peers.HISTOGRAM_DISTS)
            self.assertIn(dtype, peers.HISTOGRAM_DTYPES)
            self.assertTrue(note, title)
            if dtype == "float":
                self.assertEqual((variant, lower, upper), ("torch.histc", 0.0, 1.0))
            else:
                self.assertEqual((variant, lower, upper), ("torch.bincount", 0, 256))
            if title != "histogram: uint8, 10M samples, 256 bins, uniform":
                self.assertEqual(title, peers.histogram_title(dtype, n, bins, dist))
        ten_m = next(c for c in cases if c[0].startswith("histogram: uint8, 10M"))
        self.assertEqual(ten_m[3], 10 << 20)  # onepass-bench's "10M": 10 * 2^20

    def test_bytes(self):
        # Every sample read once, every count written once in the op's count type.
        self.assertEqual(peers.histogram_bytes("torch.bincount", "uint8", 1 << 30, 256), (1 << 30) + 256 * 8)
        self.assertEqual(peers.histogram_bytes("torch.bincount", "int32", 1000, 256), 4000 + 256 * 8)
        self.assertEqual(peers.histogram_bytes("torch.histc", "float", 1000, 256), 4000 + 256 * 4)

    def test_records_validate_and_show_percent_of_read(self):
        recs = [
            peers.make_record("baseline", "copy", "int32", 1 << 20, {"table": "ceilings: int32, 2^20 items"},
                              8 << 20, [0.01, 0.011], COPY, READ),
        ]
        title = peers.histogram_title("uint8", 1 << 30, 256, "one_bin")
        params = {"table": title, "bins": 256, "dist": "one_bin", "passes": 1.0, "ceiling": "read",
                  "note": peers.BINCOUNT_NOTE}
        recs.append(peers.make_record("histogram", "torch.bincount", "uint8", 1 << 30, params,
                                      peers.histogram_bytes("torch.bincount", "uint8", 1 << 30, 256),
                                      [2.0, 2.1, 2.2], COPY, READ))
        failed = dict(params, error="bin 128: count 5, expected 1073741824 (1 of 256 bins wrong)")
        failed["table"] = peers.histogram_title("uint8", 1 << 30, 256, "sorted")
        recs.append(peers.make_record("histogram", "torch.bincount", "uint8", 1 << 30, failed,
                                      peers.histogram_bytes("torch.bincount", "uint8", 1 << 30, 256), None,
                                      COPY, READ))
        doc = peers.make_document("peers.py (torch 2.9.0)", "NVIDIA H200", 132, "runtime 12.8, driver 13.0",
                                  "python3 bench/peers.py", 3, 20, 120 << 20, COPY, READ, recs)
        self.assertEqual(check_results.validate(doc), [])
        text = peers.format_text(doc)
        self.assertIn(title, text)
        # The histogram tables are fractions of the read ceiling; the ceilings' table is not.
        gbps = recs[1]["gbps"]
        self.assertIn(f"{100 * gbps / READ:.1f}", text)
        md = peers.format_markdown(doc)
        self.assertIn(f"### {title}\n\n| variant | n | time ms median (min–max) | GB/s | % of read |", md)
        self.assertIn("### ceilings: int32, 2^20 items\n\n| variant | n | time ms median (min–max) | GB/s | % of copy |",
                      md)
        self.assertIn("FAILED: bin 128", md)


@unittest.skipIf(np is None, "numpy is not installed")
class HistogramReferenceTest(unittest.TestCase):
    def test_integer_bins_are_exact(self):
        x = np.array([0, 1, 255, 128, 128, 7], dtype=np.uint8)
        expected = np.bincount(x, minlength=256)
        self.assertTrue(np.array_equal(peers.reference_histogram(x, 256, 0, 256), expected))
        # Fewer bins than values: floor((v - lower) * bins / (upper - lower)).
        four = peers.reference_histogram(x, 4, 0, 256)
        self.assertEqual(four.tolist(), [3, 0, 2, 1])
        # Samples outside [lower, upper) are not counted.
        self.assertEqual(peers.reference_histogram(np.array([-5, 0, 9, 10], dtype=np.int32), 2, 0, 10).tolist(),
                         [1, 1])

    def test_float_bins_and_what_is_not_counted(self):
        x = np.array([0.0, 0.5, 0.999999, 1.0, -0.25, np.nan, 0.00390625], dtype=np.float32)
        got = peers.reference_histogram(x, 256, 0.0, 1.0)
        self.assertEqual(int(got.sum()), 4)  # 1.0, the negative and NaN are outside
        self.assertEqual(int(got[0]), 1)
        self.assertEqual(int(got[1]), 1)  # 1/256 opens bin 1
        self.assertEqual(int(got[128]), 1)
        self.assertEqual(int(got[255]), 1)

    def test_chunks_add_up(self):
        saved = peers.HISTOGRAM_CHUNK
        peers.HISTOGRAM_CHUNK = 7  # several chunks, the last one partial
        try:
            x = (np.arange(100) * 37 % 256).astype(np.uint8)
            got = peers.reference_histogram(x, 256, 0, 256)
        finally:
            peers.HISTOGRAM_CHUNK = saved
        self.assertTrue(np.array_equal(got, np.bincount(x, minlength=256)))

    def test_count_difference_names_the_first_wrong_bin(self):
        expected = np.array([3, 0, 2, 1], dtype=np.int64)
        self.assertIsNone(peers.first_count_difference(expected, expected.copy()))
        self.assertIsNone(peers.first_count_difference(expected, expected.astype(np.float32)))  # histc's counts
        self.assertEqual(peers.first_count_difference(expected, np.array([3, 1, 2, 0])),
                         "bin 1: count 1, expected 0 (2 of 4 bins wrong)")
        self.assertEqual(peers.first_count_difference(expected, np.array([3, 0, 2])), "expected 4 bins, got 3")
        self.assertEqual(peers.first_count_difference(expected, np.array([3, 0, 2.5, 1])),
                         "bin 2: count 2.5 is not a whole number")
        self.assertTrue(peers.first_count_difference(expected, np.array([3, np.nan, 2, 1])).startswith("bin 1"))


if __name__ == "__main__":
    unittest.main()
