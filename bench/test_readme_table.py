#!/usr/bin/env python3
"""Unit tests for bench/readme_table.py: its ratios on synthetic results, and README.md's
performance table against the committed results.

Usage (from the repository root; standard library only):
    python3 -m unittest bench/test_readme_table.py
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import readme_table  # noqa: E402

SCAN = readme_table.ROWS[0]
RADIX = next(r for r in readme_table.ROWS if r.label.startswith("radix sort, uint32 keys"))
TITLE = SCAN.table


def rec(variant, pct_copy, title=TITLE, primitive="scan", dtype="int32", n=1 << 30, verified=True):
    ok = verified
    return {"primitive": primitive, "variant": variant, "dtype": dtype, "n": n,
            "params": {"table": title},
            "pct_of_copy": pct_copy if ok else None, "pct_of_read": pct_copy / 1.1 if ok else None,
            "verified": ok}


def doc(tool, date, records):
    return {"schema": "onepass-bench/1", "tool": tool, "gpu": "NVIDIA H100 80GB HBM3", "date": date,
            "records": records}


class RatioTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, document, markdown=False):
        with open(os.path.join(self.dir.name, name), "w", encoding="utf-8") as f:
            json.dump(document, f)
        if markdown:
            open(os.path.join(self.dir.name, name[:-5] + ".md"), "w").close()

    def cell(self, row, prefix="h100"):
        return readme_table.row_cell(row, readme_table.load_results(self.dir.name, prefix))

    def test_ratios_from_one_run_and_the_peers_run(self):
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-02T00:00:00Z",
                                    [rec("onepass", 90.0), rec("cub", 75.0)]))
        # The peers' own run: torch at 60% of *its* copy.
        self.write("h100-peers.json", doc("peers.py (torch)", "2026-01-03T00:00:00Z",
                                          [rec("torch.cumsum", 60.0), rec("cupy.cumsum", 30.0)]))
        c = self.cell(SCAN)
        self.assertAlmostEqual(c.pct, 90.0)
        self.assertAlmostEqual(c.x_cub, 90.0 / 75.0)
        self.assertAlmostEqual(c.x_torch, 90.0 / 60.0)  # 1.5: % over %, each of its own run's copy
        self.assertTrue(c.peers_file.endswith("h100-peers.json"))

    def test_the_newest_run_holding_the_row_wins_and_cub_comes_from_it(self):
        self.write("h100-old.json", doc("onepass-bench 0.1.0", "2026-01-01T00:00:00Z",
                                        [rec("onepass", 80.0), rec("cub", 40.0)]))
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-05T00:00:00Z",
                                    [rec("onepass", 96.0), rec("cub", 80.0)]))
        # Newer still, but without the row's n: not a candidate.
        self.write("h100-scan.json", doc("onepass-bench 0.1.0", "2026-01-09T00:00:00Z",
                                         [rec("onepass", 50.0, n=1 << 28), rec("cub", 10.0, n=1 << 28)]))
        c = self.cell(SCAN)
        self.assertAlmostEqual(c.pct, 96.0)
        self.assertAlmostEqual(c.x_cub, 1.2)
        self.assertTrue(c.onepass_file.endswith("h100.json"))
        self.assertIsNone(c.x_torch)

    def test_the_faster_cub_call(self):
        title = RADIX.table
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-02T00:00:00Z", [
            rec("onepass", 60.0, title=title, primitive="radix_sort", dtype="uint32", n=1 << 28),
            rec("cub", 40.0, title=title, primitive="radix_sort", dtype="uint32", n=1 << 28),
            rec("cub_64bit_count", 50.0, title=title, primitive="radix_sort", dtype="uint32", n=1 << 28)]))
        self.assertAlmostEqual(self.cell(RADIX).x_cub, 1.2)

    def test_missing_files_and_failures(self):
        self.assertEqual(readme_table.format_cells(SCAN, self.cell(SCAN, "h200"), "r"),
                         [readme_table.MISSING] * 3)
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-02T00:00:00Z",
                                    [rec("onepass", 90.0, verified=False), rec("cub", 75.0)]),
                   markdown=True)
        cells = readme_table.format_cells(SCAN, self.cell(SCAN), "r")
        self.assertEqual(cells[0], "[FAILED](r/h100.md)")

    def test_cells_link_their_files(self):
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-02T00:00:00Z",
                                    [rec("onepass", 90.0), rec("cub", 75.0)]), markdown=True)
        self.write("h100-peers.json", doc("peers.py (torch)", "2026-01-03T00:00:00Z",
                                          [rec("torch.cumsum", 60.0)]))
        cells = readme_table.format_cells(SCAN, self.cell(SCAN), "bench/results")
        self.assertEqual(cells, ["[90.0%](bench/results/h100.md)", "1.20×",
                                 "[1.50×](bench/results/h100-peers.json)"])
        text = readme_table.table(self.dir.name)
        self.assertIn("| scan, int32, 2^30, inclusive sum | copy | [90.0%]", text)


class PythonTableTest(RatioTest):
    def test_ratios_are_time_ratios_from_one_run(self):
        title = readme_table.PY_ROWS[0].table
        self.write("h100-python.json", doc("python_bench.py (onepass 0.1.0)", "2026-01-02T00:00:00Z",
                                           [rec("onepass_py", 99.0, title), rec("torch", 66.0, title),
                                            rec("cupy", 33.0, title)]), markdown=True)
        # An onepass-bench file with a table of the same title is not the Python table's.
        self.write("h100.json", doc("onepass-bench 0.1.0", "2026-01-03T00:00:00Z", [rec("onepass_py", 1.0, title)]))
        text = readme_table.python_table(self.dir.name)
        self.assertIn("| cumsum, int32, 2^28 | copy | [99.0%](bench/results/h100-python.md) | 1.50× | 3.00× | — |",
                      text)
        self.assertEqual(readme_table.row_cell(SCAN, readme_table.load_results(self.dir.name, "h100")).pct, None)

    def test_a_python_file_never_feeds_the_main_table(self):
        self.write("h100-python.json", doc("python_bench.py (onepass 0.1.0)", "2026-01-02T00:00:00Z",
                                           [rec("onepass", 90.0)]))
        self.assertEqual(readme_table.load_results(self.dir.name, "h100"), [])


class ReadmeTest(unittest.TestCase):
    def test_readme_table_matches_the_committed_results(self):
        with open(os.path.join(readme_table.REPO, "README.md"), encoding="utf-8") as f:
            _, have, _ = readme_table.split_readme(f.read())
        self.assertEqual(have, readme_table.table(),
                         "README.md's performance table is stale: python3 bench/readme_table.py --write README.md")

    def test_readme_python_table_matches_the_committed_results(self):
        with open(os.path.join(readme_table.REPO, "README.md"), encoding="utf-8") as f:
            _, have, _ = readme_table.split_readme(f.read(), readme_table.PY_BEGIN, readme_table.PY_END)
        self.assertEqual(have, readme_table.python_table(),
                         "README.md's Python table is stale: python3 bench/readme_table.py --write README.md")


if __name__ == "__main__":
    unittest.main()
