#!/usr/bin/python3
"""Writes base.jsonl and tip.jsonl: the synthetic git t/perf result files
of aggregate_examples.txt (the "Result files" lines) as two benchdb-run/1
runs, base and tip, of plan git-perf-synthetic, for tests/cli/versions_git.sh.

A test p0001-rev-list.1 becomes benchmark 0001.1 with params {"descr": its
description}. A time result "[h:]m:ss.xx user sys" becomes one value of
metric elapsed in s (only elapsed is compared, as aggregate.perl does; a
time may be 0, which the primary metric refuses), a size result one value
of metric size in bytes.

Run from the source root: /usr/bin/python3 tools/gen/data/git-perf/gen_versions_data.py
"""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
HERE = ROOT / "tests" / "data" / "git-perf"
TIME = re.compile(r"^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$")


def main():
    descr, results = {}, {"base": [], "tip": []}
    for line in (HERE / "aggregate_examples.txt").read_text().splitlines():
        m = re.match(r"^(p\d+-[\w-]+)\.(\d+)\.descr\t(.*)\|$", line)
        if m:
            descr[(m.group(1), m.group(2))] = m.group(3)
            continue
        m = re.match(r"^build_<(BASE|TIP)>\.(p\d+-[\w-]+)\.(\d+)\.result\t(.*)\|$", line)
        if m:
            results[m.group(1).lower()].append((m.group(2), m.group(3), m.group(4)))
    for run, rows in results.items():
        out = [json.dumps({"record": "run", "format": "benchdb-run/1", "plan": "git-perf-synthetic",
                           "run": run, "host": "synthetic"}, separators=(",", ":"))]
        for script, sub, text in rows:
            t = TIME.match(text)
            if t:
                h, mnt, s = t.group(1), t.group(2), t.group(3)
                value, metric, unit = "%s" % ((int(h or 0) * 60 + int(mnt)) * 60 + float(s)), "elapsed", "s"
            else:
                assert re.match(r"^\d+$", text), text
                value, metric, unit = text, "size", "bytes"
            out.append(json.dumps({"record": "samples", "benchmark": "%s.%s" % (script[1:5], sub),
                                   "params": {"descr": descr[(script, sub)]}, "block": 1, "variant": "default",
                                   "metric": metric, "unit": unit, "values": [json.loads(value)]},
                                  separators=(",", ":")))
        (HERE / ("%s.jsonl" % run)).write_text("\n".join(out) + "\n")
    print("wrote base.jsonl, tip.jsonl")


main()
