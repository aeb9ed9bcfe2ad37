#!/usr/bin/env python3
"""Unit tests for the RMSNorm parts of bench/peers.py: titles, cases, bytes, the
tolerance (the same numbers as tests/support/rms_norm_reference.hpp), the numpy
check (skipped where numpy is missing) and the schema's view of the records.

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
except ImportError:  # the check's test is skipped, the rest runs
    np = None

COPY, READ = 4000.0, 4400.0


class RmsNormPureTest(unittest.TestCase):
    def test_titles_match_the_cpp_bench(self):
        self.assertEqual(peers.rms_norm_title("float", 4096, 4096), "rmsnorm: float, 4096 rows x 4096 items")
        self.assertEqual(peers.rms_norm_title("bfloat16", 4096, 4096), "rmsnorm: bfloat16, 4096 rows x 4096 items")
        self.assertEqual(peers.rms_norm_title("float", 1, 40000), "rmsnorm: float, 1 rows x 40000 items")

    def test_cases_only_in_the_seed_preset(self):
        self.assertEqual(peers.build_rms_norm_cases([]), [("float", 4096, 4096), ("bfloat16", 4096, 4096)])
        self.assertEqual(peers.build_rms_norm_cases([1 << 20]), [])

    def test_bytes(self):
        # x read + y written + the weight once.
        self.assertEqual(peers.rms_norm_bytes("float", 4096, 4096), (2 * 4096 * 4096 + 4096) * 4)
        self.assertEqual(peers.rms_norm_bytes("bfloat16", 3, 5), (2 * 15 + 5) * 2)

    def test_tolerance(self):
        u = 2.0 ** -24
        # ceil(4096 / 32) + 11 = 139 roundings: 2 * ((139 + 2) / 2 + 6) = 153 u.
        self.assertAlmostEqual(peers.rms_norm_tolerance("float", 4096) / u, 153.0)
        self.assertAlmostEqual(peers.rms_norm_tolerance("float", 1) / u, 26.0)
        self.assertAlmostEqual(peers.rms_norm_tolerance("bfloat16", 4096), 2.0 ** -8 + 2 * 153 * u)
        # Grows with the width: longer summation chains.
        self.assertLess(peers.rms_norm_tolerance("float", 4096), peers.rms_norm_tolerance("float", 40000))

    def test_records_validate(self):
        n = 4096 * 4096
        recs = [
            peers.make_record("baseline", "copy", "int32", 1 << 20, {"table": "ceilings: int32, 2^20 items"},
                              8 << 20, [0.01, 0.011], COPY, READ),
        ]
        for dtype in ("float", "bfloat16"):
            title = peers.rms_norm_title(dtype, 4096, 4096)
            params = {"table": title, "rows": 4096, "width": 4096}
            recs.append(peers.make_record("rmsnorm", peers.RMS_NORM_VARIANT, dtype, n, params,
                                          peers.rms_norm_bytes(dtype, 4096, 4096), [0.05, 0.051, 0.052],
                                          COPY, READ))
        recs.append(peers.make_record("rmsnorm", peers.RMS_NORM_VARIANT, "bfloat16", n,
                                      {"table": peers.rms_norm_title("bfloat16", 4096, 4096), "rows": 4096,
                                       "width": 4096, "error": "row 0, column 1: expected 1, got 2"},
                                      peers.rms_norm_bytes("bfloat16", 4096, 4096), None, COPY, READ))
        doc = peers.make_document("peers.py (torch 2.9.0)", "NVIDIA H200", 132, "runtime 12.8, driver 13.0",
                                  "python3 bench/peers.py", 3, 20, 120 << 20, COPY, READ, recs)
        self.assertEqual(check_results.validate(doc), [])
        self.assertIn("rmsnorm: bfloat16, 4096 rows x 4096 items", peers.format_text(doc))
        self.assertIn("### rmsnorm: float, 4096 rows x 4096 items", peers.format_markdown(doc))


@unittest.skipIf(np is None, "numpy is not installed")
class RmsNormCheckTest(unittest.TestCase):
    def reference(self, x, w, eps):
        return x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + eps) * w

    def test_exact_passes_and_first_bad_element_is_named(self):
        rng = np.random.default_rng(1)
        x = rng.uniform(0.25, 2.0, (3, 100)) * rng.choice([-1.0, 1.0], (3, 100))
        w = rng.uniform(0.25, 2.0, 100)
        y = self.reference(x, w, 1e-6)
        tol = peers.rms_norm_tolerance("float", 100)
        self.assertIsNone(peers.rms_norm_first_error(x, w, y, 1e-6, tol))
        # Within tolerance still passes; just outside fails, at the first such element.
        self.assertIsNone(peers.rms_norm_first_error(x, w, y * (1 + 0.5 * tol), 1e-6, tol))
        bad = y.copy()
        bad[2, 7] *= 1 + 2 * tol
        bad[2, 9] = np.nan
        msg = peers.rms_norm_first_error(x, w, bad, 1e-6, tol)
        self.assertTrue(msg.startswith("row 2, column 7 (element 207)"), msg)
        nan = y.copy()
        nan[1, 0] = np.nan
        self.assertTrue(peers.rms_norm_first_error(x, w, nan, 1e-6, tol).startswith("row 1, column 0"))

    def test_eps_is_part_of_the_reference(self):
        x = np.full((1, 4), 1e-3)
        w = np.ones(4)
        y = self.reference(x, w, 1e-6)
        tol = peers.rms_norm_tolerance("float", 4)
        self.assertIsNone(peers.rms_norm_first_error(x, w, y, 1e-6, tol))
        self.assertIsNotNone(peers.rms_norm_first_error(x, w, y, 0.0, tol))


if __name__ == "__main__":
    unittest.main()
