"""Reading benchstat's files: Go benchmark text, and the text tables of
benchstat v2's golden outputs, as the tests of this folder need them.

read_bench(path) -> [(config at the line, name, unit, value text)]
parse_tables(path) -> [table], where a table is a dict:
  cols:   the column labels ("old.txt", "new.txt" or the -col values)
  unit:   benchstat's tidied unit of the table ("sec/op", "B/s", ...)
  rows:   [row], row = {"name", "geomean": bool, "cells": [cell or None]}
          cell = {"center", "prefix", "pct" (None in the geomean row),
                  "marks", and in a comparison column "delta", "p" (None
                  when not printed), "n"}
  notes:  {mark: text} of the notes under the table
parse_golden(path) -> {(name, unit, column): cell}: the non-geomean cells.
"""
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

MARKS = "¹²³⁴⁵⁶⁷⁸⁹"
PREFIX = {"T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "": 1, "m": 1e-3, "µ": 1e-6, "n": 1e-9,
          "Ti": 2.0**40, "Gi": 2.0**30, "Mi": 2.0**20, "Ki": 2.0**10}

SUMMARY = re.compile(r"^\s*(-?[\d.]+)(Ti|Gi|Mi|Ki|[TGMkmµn]?)(?: ± (\S+))?")
DELTA = re.compile(r"^\s*(~|[+-]?[\d.]+%|\?)(?: +\((?:p=([\d.]+) )?n=([\d+]+)\))?")


def read_bench(path):
    """(config dict at the line, name, unit, value text) per measurement."""
    config = {}
    rows = []
    for line in (HERE / path).read_text().splitlines():
        m = re.match(r"^([a-z][^\s:]*): (.*)$", line)
        if m:
            config[m.group(1)] = m.group(2)
            continue
        if not line.startswith("Benchmark"):
            continue
        f = line.split()
        name = f[0][len("Benchmark"):]
        for i in range(2, len(f) - 1, 2):
            rows.append((dict(config), name, f[i + 1], f[i]))
    return rows


def _marks(text):
    return "".join(ch for ch in text if ch in MARKS)


def _cell(text, comparison):
    """A column's text of one row: summary, then the change when compared."""
    cell = {"marks": _marks(text)}
    rest = text.strip(" " + MARKS)
    m = SUMMARY.match(rest)
    if m:
        cell.update(center=m.group(1), prefix=m.group(2), pct=m.group(3))
        rest = rest[m.end():].lstrip(" " + MARKS)
    if comparison and rest:
        d = DELTA.match(rest)
        if not d:
            raise ValueError("unreadable comparison %r" % text)
        cell.update(delta=d.group(1), p=d.group(2), n=d.group(3))
    if "center" not in cell and "delta" not in cell and not cell["marks"]:
        return None
    return cell


def parse_tables(path):
    lines = (HERE / path).read_text().splitlines()
    tables = []
    i = 0
    while i < len(lines):
        if "│" not in lines[i]:
            i += 1
            continue
        header, units = lines[i], lines[i + 1]
        bars = [k for k, ch in enumerate(header) if ch == "│"]
        cols = [header[bars[k] + 1:bars[k + 1]].strip() for k in range(len(bars) - 1)]
        unit = units[bars[0] + 1:bars[1]].split()[0]
        table = {"cols": cols, "unit": unit, "rows": [], "notes": {}}
        i += 2
        while i < len(lines) and lines[i].strip() and "│" not in lines[i]:
            line = lines[i]
            i += 1
            if line[0] in MARKS:
                table["notes"][line[0]] = line[2:]
                continue
            name = line[:bars[0]].strip()
            cells = []
            for k in range(len(cols)):
                end = bars[k + 1] if k + 2 < len(bars) else len(line)
                cells.append(_cell(line[bars[k] + 1:end] if k + 1 < len(bars) else "", k > 0))
            table["rows"].append({"name": name, "geomean": name == "geomean", "cells": cells})
        tables.append(table)
    return tables


def parse_golden(path):
    """{(name, unit, column): cell} of the non-geomean rows; a comparison
    cell also names its baseline column (base)."""
    cells = {}
    for t in parse_tables(path):
        for row in t["rows"]:
            if row["geomean"]:
                continue
            for k, c in enumerate(row["cells"]):
                if c is None:
                    continue
                entry = {key: c[key] for key in ("center", "prefix", "pct") if key in c}
                if "delta" in c:
                    entry.update(delta=c["delta"], p=c["p"], n=c["n"], base=t["cols"][0])
                if entry:
                    cells.setdefault((row["name"], t["unit"], t["cols"][k]), {}).update(entry)
    return cells
