#!/bin/sh
# examples/git-perf holds the timing table of the message it was taken from
# (tests/data/seeds/git-perf-table.txt, its origin there) exactly: the same
# value texts in the same order per version, and its Max, Min and Avg* rows
# follow from them (Avg*: drop the largest and smallest of ten, average the
# rest).
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
set -eu
: "${BENCHDB_SRC:?}"
SEED=$BENCHDB_SRC/tests/data/seeds/git-perf-table.txt
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
python3 - "$SEED" "$BENCHDB_SRC/examples/git-perf/p0001-git-git.jsonl" <<'PY'
import json, re, sys
from decimal import Decimal
seed, archive = open(sys.argv[1]).read(), open(sys.argv[2]).read()

# The seed's table: a header row naming the versions, ten sample rows with
# an empty first cell, then Max, Min and Avg* rows.
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in seed.splitlines() if l.startswith("|")]
header = rows[0][1:]
assert header == ["v2.18.0", "v2.19.0-rc0", "HEAD"], header
samples = [r[1:] for r in rows if r[0] == "" and re.fullmatch(r"[0-9.]+", r[1])]
summary = {r[0]: r[1:] for r in rows if r[0] in ("Max", "Min", "Avg*")}
assert len(samples) == 10 and len(summary) == 3

# The archive: value texts as written (not as parsed), per variant.
lines = archive.splitlines()
run = json.loads(lines[0])
msgid = re.search(r"^Message-ID: (\S+)$", seed, re.M).group(1)
assert run["attributes"]["message_id"] == msgid, run["attributes"]["message_id"]
assert run["plan"] == "git-perf-p0001"
texts = {}
for l in lines[1:]:
    rec = json.loads(l)
    assert rec["record"] == "samples" and rec["benchmark"] == "0001.2" and rec["unit"] == "s" and rec["block"] == 1
    raw = re.search(r'"values":\[([^\]]*)\]', l).group(1).split(",")
    assert [float(x) for x in raw] == rec["values"]
    texts[rec["variant"]] = raw
assert list(texts) == header, list(texts)
for j, v in enumerate(header):
    want = [row[j] for row in samples]
    assert texts[v] == want, (v, texts[v], want)
    d = [Decimal(x) for x in texts[v]]
    assert max(d) == Decimal(summary["Max"][j]) and min(d) == Decimal(summary["Min"][j]), v
    assert (sum(d) - max(d) - min(d)) / 8 == Decimal(summary["Avg*"][j]), v
PY
echo ok
