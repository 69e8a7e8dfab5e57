#!/usr/bin/python3
"""Writes compare/: the two sides of each benchstat golden that compares
the columns of one file (benchstat -col note FILE) as separate inputs for
benchdb ingest, which loads one side per run.

  - NAME-before.txt, NAME-after.txt: the Go benchmark lines under "note:
    before" and "note: after" (other configuration lines kept), for
    `benchdb ingest --format go-bench`;
  - NAME-before.jsonl, NAME-after.jsonl for units.txt and zero.txt, whose
    benchmarks report no ns/op (the go-bench reader needs one): the same
    values as benchdb-run/1 archives, each unit a metric of that name, as
    the go-bench reader stores a further metric. Their "Unit U
    assume=exact" lines become `benchdb compare --exact-units`;
  - and for those two also NAME-before.txt, NAME-after.txt, Go text with
    the "Unit" lines first, for `benchdb compare` on files, which reads
    them as benchstat does (`benchdb compare before=NAME-before.txt
    after=NAME-after.txt` is `benchstat -col note NAME.txt`).

Run from the source root: /usr/bin/python3 tools/gen/data/benchstat/gen_compare_data.py
"""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
HERE = ROOT / "tests" / "data" / "benchstat"
OUT = HERE / "compare"
TEXT = ["smallSample.txt", "issue19565.txt", "issue19634.txt"]
JSONL = ["units.txt", "zero.txt"]


def unit_lines(path):
    return [line for line in (HERE / path).read_text().splitlines() if line.startswith("Unit ")]


def split_by_note(path):
    """{note: [lines]} of a benchmark file, configuration lines kept."""
    sides, current, shared = {}, None, []
    for line in (HERE / path).read_text().splitlines():
        m = re.match(r"^note: (.*)$", line)
        if m:
            current = m.group(1)
            sides.setdefault(current, list(shared))
            continue
        if current is None:
            if not line.startswith("Unit "):
                shared.append(line)
            continue
        sides[current].append(line)
    return sides


def archive(case, side, lines):
    """A benchdb-run/1 archive of one side: values per benchmark and unit."""
    series = {}
    for line in lines:
        if not line.startswith("Benchmark"):
            continue
        f = line.split()
        name, params = f[0], {}
        m = re.match(r"^(.*)-(\d+)$", name)
        if m:
            name, params = m.group(1), {"procs": int(m.group(2))}
        for i in range(2, len(f) - 1, 2):
            series.setdefault((name, json.dumps(params, sort_keys=True), f[i + 1]), []).append(f[i])
    out = [json.dumps({"record": "run", "format": "benchdb-run/1", "plan": case, "run": side,
                       "host": "benchstat"}, separators=(",", ":"))]
    for (name, params, unit), values in series.items():
        out.append('{"record":"samples","benchmark":%s,"params":%s,"block":1,"variant":"default",'
                   '"metric":%s,"unit":%s,"values":[%s]}' % (json.dumps(name), params.replace(" ", ""),
                                                              json.dumps(unit), json.dumps(unit),
                                                              ",".join(values)))
    return "\n".join(out) + "\n"


def main():
    OUT.mkdir(exist_ok=True)
    for path in TEXT + JSONL:
        case = path[:-len(".txt")]
        sides = split_by_note(path)
        assert sorted(sides) == ["after", "before"], (path, sorted(sides))
        for side, lines in sides.items():
            if path in TEXT:
                (OUT / ("%s-%s.txt" % (case, side))).write_text("\n".join(lines).strip("\n") + "\n")
            else:
                (OUT / ("%s-%s.jsonl" % (case, side))).write_text(archive(case, side, lines))
                text = unit_lines(path) + lines
                (OUT / ("%s-%s.txt" % (case, side))).write_text("\n".join(text).strip("\n") + "\n")
    print("wrote", ", ".join(sorted(p.name for p in OUT.iterdir())))


main()
