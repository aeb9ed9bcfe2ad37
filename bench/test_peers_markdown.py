"""peers.format_markdown: a note that every row of a table carries is said once, as the
table's; notes that differ stay with their rows."""
import unittest

import peers


def record(table, variant, note=None):
    params = {"table": table}
    if note:
        params["note"] = note
    return {"variant": variant, "n": 1 << 20, "verified": True, "ms_median": 1.0, "ms_min": 0.9, "ms_max": 1.1,
            "gbps": 100.0, "pct_of_copy": 50.0, "pct_of_read": 49.0, "params": params}


def doc(records):
    return {"gpu": "GPU", "sm_count": 1, "cuda": "13.0", "date": "today", "tool": "test",
            "method": {"iters": 1, "warmup": 1, "l2_flush_bytes": 1 << 20}, "copy_gbps": 200.0, "read_gbps": 200.0,
            "records": records}


class TableNotes(unittest.TestCase):
    def test_a_note_on_every_row_is_the_tables(self):
        text = peers.format_markdown(doc([record("t", "a", "shared"), record("t", "b", "shared")]))
        self.assertEqual(text.count("shared"), 1, text)
        self.assertIn("- shared\n", text)

    def test_different_notes_stay_with_their_rows(self):
        text = peers.format_markdown(doc([record("t", "a", "one"), record("t", "b", "two"), record("t", "c")]))
        self.assertIn("- a: one", text)
        self.assertIn("- b: two", text)

    def test_a_single_row_keeps_its_variant(self):
        text = peers.format_markdown(doc([record("t", "a", "alone")]))
        self.assertIn("- a: alone", text)


if __name__ == "__main__":
    unittest.main()
