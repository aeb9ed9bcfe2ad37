#!/usr/bin/env python3
"""Validate benchmark results files against the "onepass-bench/1" JSON schema.

Usage:
    python3 bench/check_results.py FILE.json [FILE.json ...]

For each file prints "FILE: ok (N records, T tables)" or one line per problem
("FILE: records[3].gbps: expected number or null, got string"). Exits 1 if any
file is invalid, 0 if all are valid.

Also importable: validate(obj) returns the list of problems (empty when valid).

Both writers of the schema (the C++ `onepass-bench` and bench/peers.py) and its
readers (bench/plot.py, the docs) rely on this one definition, so it is strict:
unknown fields are errors rather than warnings, because the schema is meant to
grow by adding records, never fields. Standard library only, so it runs anywhere.
"""

import argparse
import datetime
import json
import math
import re
import sys

SCHEMA = "onepass-bench/1"

# Top-level fields and the JSON type each must have.
TOP_FIELDS = {
    "schema": "string",
    "tool": "string",
    "gpu": "string",
    "sm_count": "integer",
    "cuda": "string",
    "date": "string",
    "command": "string",
    "method": "object",
    "copy_gbps": "number",
    "read_gbps": "number",
    "records": "array",
}

METHOD_FIELDS = ("warmup", "iters", "l2_flush_bytes")

# Fields that carry a measurement: all null when a record failed verification,
# all numbers when it passed.
TIMING_FIELDS = (
    "ms_median",
    "ms_min",
    "ms_max",
    "gbps",
    "pct_of_copy",
    "pct_of_read",
    "items_per_s",
)

RECORD_FIELDS = ("primitive", "variant", "dtype", "n", "params") + TIMING_FIELDS + ("verified",)

# params.form of a segmented_scan record: head flags, CSR offsets, keys, begin/end arrays
# with gaps ("begin_end", the older of the two), without ("begin_end_no_gaps"), or with
# gaps whose items are copied from the input ("begin_end_gaps_copied").
SEGMENT_FORMS = ("flags", "offsets", "by_key", "begin_end", "begin_end_no_gaps", "begin_end_gaps_copied")

# pct_of_copy and pct_of_read are derived from gbps and the file's ceilings;
# writers round differently, so allow this much relative slack.
PCT_RTOL = 1e-3

# ISO-8601 in UTC with a literal Z; fractional seconds tolerated.
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")


def json_type(value):
    """The JSON name of a decoded value's type, for messages."""
    # bool first: in Python it is a subclass of int.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    # NaN and infinities are not JSON; Python's json module accepts them
    # anyway, so reject them here.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value)


def type_ok(value, expected):
    if expected == "integer":
        return is_int(value)
    if expected == "number":
        return is_number(value)
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "object":
        return isinstance(value, dict)
    if expected == "array":
        return isinstance(value, list)
    raise ValueError(expected)


def _type_problem(path, value, expected):
    """A message for value at path not being of the expected JSON type, or None."""
    if type_ok(value, expected):
        return None
    got = json_type(value)
    if got in ("number", "integer") and expected in ("number", "integer"):
        got = "non-finite number" if not is_number(value) else got
    return f"{path}: expected {expected}, got {got}"


def _check_fields(path, obj, allowed, required, problems):
    """Report missing required keys and unknown keys of obj."""
    prefix = f"{path}." if path else ""
    for key in required:
        if key not in obj:
            problems.append(f"{prefix}{key}: missing required field")
    for key in obj:
        if key not in allowed:
            problems.append(f"{prefix}{key}: unexpected field")


def _check_params(path, params, verified, problems, n=None):
    if not isinstance(params, dict):
        problems.append(f"{path}: expected object, got {json_type(params)}")
        return
    table = params.get("table")
    if "table" not in params:
        problems.append(f"{path}.table: missing required field")
    elif not isinstance(table, str):
        problems.append(f"{path}.table: expected string, got {json_type(table)}")
    elif not table.strip():
        problems.append(f"{path}.table: must not be empty")

    for key, value in params.items():
        where = f"{path}.{key}"
        if key == "table":
            continue
        if key == "kind":
            if value not in ("inclusive", "exclusive"):
                problems.append(f'{where}: expected "inclusive" or "exclusive", got {json.dumps(value)}')
        elif key in ("op", "note", "error"):
            if not isinstance(value, str):
                problems.append(f"{where}: expected string, got {json_type(value)}")
        elif key == "passes":
            if not is_number(value):
                problems.append(f"{where}: expected number, got {json_type(value)}")
            elif value <= 0:
                problems.append(f"{where}: must be > 0, got {value}")
        elif key == "keep":
            # select and partition: the percentage of the items kept.
            if not is_number(value):
                problems.append(f"{where}: expected number, got {json_type(value)}")
            elif not 0 <= value <= 100:
                problems.append(f"{where}: must be from 0 to 100 (percent), got {value}")
        elif key == "runs":
            # unique: items per run of equal values.
            if not is_int(value):
                problems.append(f"{where}: expected integer, got {json_type(value)}")
            elif value < 1:
                problems.append(f"{where}: must be >= 1, got {value}")
        elif key == "selected":
            # select, unique, partition: the count of items kept, out of n.
            if not is_int(value):
                problems.append(f"{where}: expected integer, got {json_type(value)}")
            elif value < 0:
                problems.append(f"{where}: must be >= 0, got {value}")
            elif is_int(n) and value > n:
                problems.append(f"{where}: must be <= n ({n}), got {value}")
        elif key == "order":
            # radix_sort: the sort order.
            if value not in ("ascending", "descending"):
                problems.append(f'{where}: expected "ascending" or "descending", got {json.dumps(value)}')
        elif key == "values":
            # radix_sort: keys alone ("none") or the values sorted with them.
            if value not in ("none", "u32", "u64"):
                problems.append(f'{where}: expected "none", "u32" or "u64", got {json.dumps(value)}')
        elif key == "digit_passes":
            # radix_sort: the 8-bit digit passes of the traffic model its GB/s counts.
            if not is_int(value):
                problems.append(f"{where}: expected integer, got {json_type(value)}")
            elif value < 1:
                problems.append(f"{where}: must be >= 1, got {value}")
        elif key == "form":
            # segmented_scan: how the variant was told where segments start.
            if value not in SEGMENT_FORMS:
                problems.append(
                    f"{where}: expected one of {', '.join(json.dumps(f) for f in SEGMENT_FORMS)}, "
                    f"got {json.dumps(value)}"
                )
        elif key == "segments":
            # segmented_scan: the segment count, empty segments included.
            if not is_int(value):
                problems.append(f"{where}: expected integer, got {json_type(value)}")
            elif value < 0:
                problems.append(f"{where}: must be >= 0, got {value}")
        elif key == "batch":
            if not is_int(value):
                problems.append(f"{where}: expected integer, got {json_type(value)}")
            elif value < 1:
                problems.append(f"{where}: must be >= 1, got {value}")
        elif key == "us_per_block":
            # A measurement stored as a parameter (batched tables plot it), so
            # it follows the timing rule: no number on a failed record.
            if value is None:
                if verified is True:
                    problems.append(f"{where}: must be a number when verified is true")
            elif not is_number(value):
                problems.append(f"{where}: expected number or null, got {json_type(value)}")
            elif verified is False:
                problems.append(f"{where}: must be null or absent when verified is false")
            elif value <= 0:
                problems.append(f"{where}: must be > 0, got {value}")
        elif isinstance(value, (dict, list)) or (
            not isinstance(value, (str, bool)) and value is not None and not is_number(value)
        ):
            # Parameters are shown in table cells and chart labels: scalars only.
            problems.append(f"{where}: expected string, number, boolean or null, got {json_type(value)}")


def _check_record(path, rec, copy_gbps, read_gbps, problems):
    if not isinstance(rec, dict):
        problems.append(f"{path}: expected object, got {json_type(rec)}")
        return
    _check_fields(path, rec, RECORD_FIELDS, RECORD_FIELDS, problems)

    for key in ("primitive", "variant", "dtype"):
        if key in rec:
            value = rec[key]
            if not isinstance(value, str):
                problems.append(f"{path}.{key}: expected string, got {json_type(value)}")
            elif not value.strip():
                problems.append(f"{path}.{key}: must not be empty")

    if "n" in rec:
        n = rec["n"]
        if not is_int(n):
            problems.append(f"{path}.n: expected integer, got {json_type(n)}")
        elif n < 1:
            problems.append(f"{path}.n: must be >= 1, got {n}")

    verified = rec.get("verified")
    if "verified" in rec and not isinstance(verified, bool):
        problems.append(f"{path}.verified: expected boolean, got {json_type(verified)}")
        verified = None  # unknown: skip the rules that depend on it

    if "params" in rec:
        _check_params(f"{path}.params", rec["params"], verified, problems, rec.get("n"))

    # Type of every timing field first; the consistency checks below only
    # look at fields that passed.
    good = {}
    for key in TIMING_FIELDS:
        if key not in rec:
            continue
        value = rec[key]
        if value is None:
            good[key] = None
        elif is_number(value):
            good[key] = value
        else:
            problems.append(f"{path}.{key}: expected number or null, got {json_type(value)}")

    if verified is False:
        for key, value in good.items():
            if value is not None:
                problems.append(f"{path}.{key}: must be null when verified is false")
        return
    if verified is not True:
        return

    for key, value in list(good.items()):
        if value is None:
            problems.append(f"{path}.{key}: must be a number when verified is true")
            del good[key]

    for key in ("ms_min", "ms_median", "ms_max", "gbps", "items_per_s"):
        if key in good and good[key] <= 0:
            problems.append(f"{path}.{key}: must be > 0, got {good[key]}")
    if all(k in good for k in ("ms_min", "ms_median", "ms_max")):
        if not good["ms_min"] <= good["ms_median"] <= good["ms_max"]:
            problems.append(
                f"{path}: expected ms_min <= ms_median <= ms_max, got "
                f"{good['ms_min']}, {good['ms_median']}, {good['ms_max']}"
            )

    # Only compare against ceilings that are themselves valid; a bad ceiling
    # is reported once at the top level rather than once per record.
    for key, ceiling in (("pct_of_copy", copy_gbps), ("pct_of_read", read_gbps)):
        if key in good and "gbps" in good and is_number(ceiling) and ceiling > 0:
            expected = 100.0 * good["gbps"] / ceiling
            if not math.isclose(good[key], expected, rel_tol=PCT_RTOL):
                name = "copy_gbps" if key == "pct_of_copy" else "read_gbps"
                problems.append(
                    f"{path}.{key}: {good[key]} disagrees with 100 * gbps / {name} = {expected:.6g}"
                )


def validate(obj):
    """Return a list of problems with obj as an "onepass-bench/1" document; empty if valid."""
    problems = []
    if not isinstance(obj, dict):
        return [f"document: expected object, got {json_type(obj)}"]

    _check_fields("", obj, TOP_FIELDS, TOP_FIELDS, problems)
    for key, expected in TOP_FIELDS.items():
        if key in obj:
            msg = _type_problem(key, obj[key], expected)
            if msg:
                problems.append(msg)

    if isinstance(obj.get("schema"), str) and obj["schema"] != SCHEMA:
        problems.append(f"schema: expected {json.dumps(SCHEMA)}, got {json.dumps(obj['schema'])}")
    for key in ("tool", "gpu", "cuda", "command"):
        if isinstance(obj.get(key), str) and not obj[key].strip():
            problems.append(f"{key}: must not be empty")
    if is_int(obj.get("sm_count")) and obj["sm_count"] < 1:
        problems.append(f"sm_count: must be >= 1, got {obj['sm_count']}")

    date = obj.get("date")
    if isinstance(date, str):
        ok = bool(DATE_RE.match(date))
        if ok:
            try:  # the regex accepts month 13; the parser does not
                datetime.datetime.strptime(date[:19], "%Y-%m-%dT%H:%M:%S")
            except ValueError:
                ok = False
        if not ok:
            problems.append(f'date: expected ISO-8601 UTC like "2026-11-21T23:10:05Z", got {json.dumps(date)}')

    method = obj.get("method")
    if isinstance(method, dict):
        _check_fields("method", method, METHOD_FIELDS, METHOD_FIELDS, problems)
        minimum = {"warmup": 0, "iters": 1, "l2_flush_bytes": 0}
        for key in METHOD_FIELDS:
            if key in method:
                value = method[key]
                if not is_int(value):
                    problems.append(f"method.{key}: expected integer, got {json_type(value)}")
                elif value < minimum[key]:
                    problems.append(f"method.{key}: must be >= {minimum[key]}, got {value}")

    for key in ("copy_gbps", "read_gbps"):
        if is_number(obj.get(key)) and obj[key] <= 0:
            problems.append(f"{key}: must be > 0, got {obj[key]}")

    records = obj.get("records")
    if isinstance(records, list):
        for i, rec in enumerate(records):
            _check_record(f"records[{i}]", rec, obj.get("copy_gbps"), obj.get("read_gbps"), problems)
    return problems


def table_count(obj):
    """Number of distinct table titles in a (valid) document."""
    return len({r["params"]["table"] for r in obj["records"]})


def check_file(path):
    """Return (problems, document or None) for one file."""
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except OSError as e:
        return [f"cannot read: {e.strerror or e}"], None
    except (ValueError, UnicodeDecodeError) as e:
        return [f"invalid JSON: {e}"], None
    return validate(obj), obj


def main(argv=None):
    parser = argparse.ArgumentParser(
        description='Validate benchmark results files against the "onepass-bench/1" schema.'
    )
    parser.add_argument("files", nargs="+", metavar="FILE.json")
    args = parser.parse_args(argv)

    status = 0
    for path in args.files:
        problems, obj = check_file(path)
        if problems:
            status = 1
            for p in problems:
                print(f"{path}: {p}")
        else:
            print(f"{path}: ok ({len(obj['records'])} records, {table_count(obj)} tables)")
    return status


if __name__ == "__main__":
    sys.exit(main())
