#!/bin/sh
# The gate queries reproduce the peers' anchors: Conbench's lookback
# z-scores (gate-zscore) and Bencher's threshold limits (gate-ttest's
# t_test, z_score and log_normal models, gate-percent's percentage limits),
# on short histories built from the anchors (tests/data/history/anchors.jsonl,
# made by gen_gate_anchors.py). Each number is held to an mpmath reference
# within 1e-12 relative, and to the anchor as its peer wrote it: exact
# constants within 1e-12 relative (percentage limits exactly), rounded ones
# to their figures.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
D=$BENCHDB_SRC/tests/data/history

bd init >/dev/null
run bd ingest -q "$D/anchors.jsonl"
expect_rc 0 "ingest the anchors' histories"

# Every (query, parameters, plan) of the expectations, evaluated once with
# scope=every (each run against the runs before it), as JSON.
grep -v '^#' "$D/anchors_expected.tsv" | cut -f1-3 | sort -u >evals.tsv
while IFS="$(printf '\t')" read -r query params plan; do
    set -- --param scope=every --param "plan=$plan"
    # Conbench alerts from a distribution of two runs on; benchdb's default
    # minimum (min_runs = 8, docs/queries.md) is not Conbench's.
    [ "$query" = gate-zscore ] && set -- "$@" --param min_runs=2
    for p in $params; do set -- "$@" --param "$p"; done
    out="$query.$plan.$(echo "$params" | tr ' =' '_-').json"
    bd query "$query" "$@" --format json --no-record >"$out" 2>err.txt || fail "$query $params $plan: $(cat err.txt)"
done <evals.tsv

python3 - "$D/anchors_expected.tsv" <<'PY' || fail "gate values differ from the anchors"
import json, sys
bad = 0
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    query, params, plan, seq, column, expected, kind = line.rstrip("\n").split("\t")
    rows = json.load(open("%s.%s.%s.json" % (query, plan, params.replace(" ", "_").replace("=", "-"))))
    row = [r for r in rows if r["seq"] == int(seq)]
    if len(row) != 1:
        print("FAIL %s %s %s seq %s: %d rows" % (query, params, plan, seq, len(row)))
        bad += 1
        continue
    got = row[0][column]
    ok = True
    if kind == "text" or expected == "null":
        ok = got == (None if expected == "null" else expected)
    elif got is None:
        ok = False
    else:
        e = float(expected)
        if kind in ("mpmath", "rel"):
            ok = abs(got - e) <= 1e-12 * max(abs(e), 1e-300)
        elif kind == "exact":
            ok = got == e
        elif kind == "sig4":
            ok = "%.4g" % got == "%.4g" % e
        elif kind.startswith("dec"):
            ok = round(got, int(kind[3:])) == e
    if not ok:
        print("FAIL %s %s %s seq %s %s: got %r, expected %s (%s)" % (query, params, plan, seq, column, got, expected, kind))
        bad += 1
print("%d anchor checks, %d failed" % (sum(1 for l in open(sys.argv[1]) if not l.startswith("#")), bad))
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))

# scope=latest judges only the last run of each history, with the same
# numbers (the contender of Conbench's first anchor).
run bd query gate-zscore --param plan=conbench-1 --param svs=mean --param min_runs=2 --format json --no-record
expect_rc 0 "gate-zscore, latest"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1 and rows[0]["seq"] == 3, rows
assert abs(rows[0]["z"] + 4.9497474683058327) <= 1e-12 * 4.95, rows[0]["z"]
assert rows[0]["pass"] == 1 and rows[0]["alert"] is None, rows[0]
' out || fail "gate-zscore latest: $(cat out)"
checks=$((checks + 1))

# The z-score crosses Conbench's threshold: -41.7 < -5 fails the gate.
run bd query gate-zscore --param plan=conbench-3 --param svs=mean --param min_runs=2 --format json --no-record
expect_rc 0 "gate-zscore, Conbench's minimum"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
assert r["alert"] == "regression" and r["pass"] == 0 and r["limit"] == -5.0 and r["statistic"] == r["z"], r
' out || fail "gate-zscore regression row: $(cat out)"
checks=$((checks + 1))
# With benchdb's default minimum of 8 runs the same run raises no alert:
# its distribution holds 2.
run bd query gate-zscore --param plan=conbench-3 --param svs=mean --format json --no-record
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
assert r["baseline_n"] == 2 and r["alert"] is None and r["pass"] == 1, r
' out || fail "gate-zscore below min_runs: $(cat out)"
checks=$((checks + 1))

finish
