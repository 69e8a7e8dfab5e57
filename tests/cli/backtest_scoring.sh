#!/bin/sh
# benchdb backtest scores each gate on a small simulated history exactly as
# an independent re-implementation does (tests/data/history/
# gen_backtest_expected.py, from the values the archives hold): the same
# alerts (run, statistic, limit, hit or false alarm, delay), the same missed
# regressions, and the same counts (runs judged and runs without limits
# apart: a history's first nights), recall, precision, false alarms per 100
# runs judged and delays per history and in total.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
D=$BENCHDB_SRC/tests/data/history

bd simulate -q --history 40 --hosts 2 --cells 2 --steps 2 --seed 21 \
    --step 'ci-a-0020:small/serialize:+3' --step 'ci-b-0030:large/serialize:-8' sim
bd init >/dev/null
run bd ingest -q sim
expect_rc 0 "ingest the simulated history"

# The data are the ones the expectations were computed from.
bd query trend --param benchmark=serialize --format json --no-record >trend.json
python3 - "$D/backtest_values.tsv" <<'PY' || fail "the store's scores are not the exported values' means"
import json
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
import math, sys
rows = {(r["host"], J(r["params"])["workload"], r["seq"]): r for r in json.load(open("trend.json"))}
n = 0
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    host, w, seq, run, rev, values = line.rstrip("\n").split("\t")
    r = rows[(host, w, int(seq))]
    v = [float(x) for x in values.split(",")]
    assert r["run"] == run and r["revision"] == rev, (r, run, rev)
    assert abs(r["value"] - math.fsum(v) / len(v)) <= 1e-12 * r["value"], (r, v)
    n += 1
assert n == len(rows) == 160, (n, len(rows))
PY
checks=$((checks + 1))

for g in gate-zscore gate-ttest gate-percent; do
    run bd backtest "$g" --format json --no-record
    expect_rc 0 "backtest $g"
    cp out "$g.json"
    python3 - "$D/backtest_expected.json" "$g" <<'PY' || fail "backtest $g differs from the independent scoring"
import json, sys
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
want = json.load(open(sys.argv[1]))[sys.argv[2]]
rows = json.load(open(sys.argv[2] + ".json"))
def close(a, b):
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(b), 1e-300))
bad = []
def check(what, ok):
    if not ok:
        bad.append(what)
key = lambda r: (r["host"], J(r["params"])["workload"], r["seq"])
alerts = sorted((r for r in rows if r["kind"] == "alert"), key=key)
check("alert count %d, expected %d" % (len(alerts), len(want["alerts"])), len(alerts) == len(want["alerts"]))
for r, w in zip(alerts, want["alerts"]):
    what = "alert %s/%s seq %s" % (w["host"], w["workload"], w["seq"])
    check(what + " place", key(r) == (w["host"], w["workload"], w["seq"]) and r["run"] == w["run"])
    check(what + " verdict %s" % r["verdict"], r["verdict"] == w["verdict"] and r["delay"] == w["delay"])
    check(what + " statistic %r vs %r" % (r["statistic"], w["statistic"]), close(r["statistic"], w["statistic"]))
    check(what + " limit %r vs %r" % (r["limit"], w["limit"]), close(r["limit"], w["limit"]))
missed = sorted((r for r in rows if r["kind"] == "missed"), key=key)
check("missed %r" % [key(r) for r in missed],
      [key(r) + (r["run"],) for r in missed] == [(w["host"], w["workload"], w["seq"], w["run"]) for w in want["missed"]])
def counts(r, w, what):
    for c in ("runs", "runs_without_limits", "events", "detected", "alerts", "false_alarms", "max_delay"):
        check("%s %s %r vs %r" % (what, c, r[c], w[c]), r[c] == w[c])
    check(what + " recall", close(r["recall"], w["detected"] / w["events"] if w["events"] else None))
    check(what + " precision", close(r["precision"], (w["alerts"] - w["false_alarms"]) / w["alerts"] if w["alerts"] else None))
    check(what + " false_per_100", close(r["false_per_100"], 100 * w["false_alarms"] / w["runs"]))
    check(what + " mean_delay", close(r["mean_delay"], w["delay_sum"] / w["detected"] if w["detected"] else None))
hist = sorted((r for r in rows if r["kind"] == "history"), key=lambda r: key(dict(r, seq=0)))
check("history rows %d vs %d" % (len(hist), len(want["histories"])), len(hist) == len(want["histories"]))
for r, w in zip(hist, want["histories"]):
    check("history %s/%s" % (w["host"], w["workload"]), (r["host"], J(r["params"])["workload"]) == (w["host"], w["workload"]))
    counts(r, w, "history %s/%s" % (w["host"], w["workload"]))
total = [r for r in rows if r["kind"] == "total"]
check("one total row, first", len(total) == 1 and rows[0]["kind"] == "total")
counts(total[0], want["total"], "total")
t = want["total"]
check("summary %r" % total[0]["summary"], total[0]["summary"] == "%d of %d reference regressions detected; %d alerts, %d false, in %d runs judged, %d runs without limits"
      % (t["detected"], t["events"], t["alerts"], t["false_alarms"], t["runs"], t["runs_without_limits"]))
# every night of the four histories is either judged or without limits
check("runs judged + without limits = 160", t["runs"] + t["runs_without_limits"] == 160 and t["runs_without_limits"] > 0)
for b in bad:
    print("FAIL", sys.argv[2], b)
sys.exit(1 if bad else 0)
PY
    checks=$((checks + 1))
done

# The improvement step (-8% on ci-b large) is no reference regression, and
# the +3% step on ci-a small is one, missed by the z-score gate.
python3 -c '
import json
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
rows = json.load(open("gate-zscore.json"))
missed = [(r["host"], J(r["params"])["workload"], r["seq"]) for r in rows if r["kind"] == "missed"]
assert missed == [("ci-a", "small", 20)], missed
assert rows[0]["events"] == 3, rows[0]
' || fail "the reference: regressions only"
checks=$((checks + 1))

# The sentence's nouns agree with their numbers ("in 1 runs", "1 of 1
# reference regressions" before): one step in one history, then one run.
bd init --db one.db >/dev/null
bd simulate -q --history 30 --hosts 1 --cells 1 --step 20:small/serialize:+30 --seed 3 one &&
    bd --db one.db ingest -q one || fail "one history with one step"
run bd --db one.db backtest gate-percent --no-record
expect_err_has "gate-percent would have raised 6 alerts in 29 runs judged, 1 run without limits: 1 of 1 reference regression caught (recall 1.00, precision 0.83), 1 false alarm (3.45 per 100 runs judged)" \
    "one reference regression: singular"
run bd --db one.db backtest gate-percent --since 2025-11-20 --no-record
expect_err_has "gate-percent would have raised 0 alerts in 1 run judged: no reference regression to catch" "one run judged: singular"
run bd --db one.db backtest gate-percent --since 2025-11-20
id=$(sed -n 's/^recorded as evaluation \([0-9]*\) .*/\1/p' "$T/err")
run bd --db one.db report --evaluation "$id" -o one.html
expect_rc 0 "the one-run back-test's page"
expect_eq "$(sed -n 's/.*<h1 class="headline">\(.*\)<\/h1>.*/\1/p' one.html)" \
    "no reference regression to catch; gate-percent raised 0 alerts in 1 run judged" "its headline: singular"

# A history's first nights have no limits (gate-zscore: under 8 runs in
# the distribution): counted apart, not as judged, and in no rate. One
# history of 30 nights: nights 1-8 without limits, 22 judged.
run bd --db one.db backtest gate-zscore --format json --no-record
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))[0]
assert t["kind"] == "total" and t["runs"] == 22 and t["runs_without_limits"] == 8, t
assert t["false_per_100"] == (100 * t["false_alarms"] / 22 if t["false_alarms"] else 0), t
' "$T/out" || fail "backtest, the first nights without limits: $(head -c 600 "$T/out")"
checks=$((checks + 1))
run bd --db one.db backtest gate-zscore -p min_runs=12 --no-record
expect_err_has " in 18 runs judged, 12 runs without limits: " "min_runs 12: twelve nights without limits, said apart"

# In table format: the summary, the alerts, and the verdict in words.
run bd backtest gate-percent --no-record
expect_rc 0 "backtest, table"
expect_err_has "gate-percent would have raised 9 alerts in 156 runs judged, 4 runs without limits: 2 of 3 reference regressions caught (recall 0.67, precision 1.00), 0 false alarms (0 per 100 runs judged), detected 0 runs late on average (at most 0) (reference: injected-steps, within 5 runs)" "the sentence"
expect_out_has "missed" "a missed regression is listed"
# The answer first: merged as on a terminal, the sentence is line one.
bd backtest gate-percent --no-record >"$T/merged" 2>&1
expect_eq "$(head -1 "$T/merged" | cut -d' ' -f1-6)" "gate-percent would have raised 9 alerts" "backtest: the sentence first"
expect_eq "$(grep -n missed "$T/merged" | head -1 | cut -d: -f1 | awk '{print ($1 > 1)}')" 1 "backtest: the rows after it"
# Markdown (a comment for a pull request): the sentence is stdout's bold first line.
run bd backtest gate-percent --no-record --format markdown
expect_eq "$(head -n 1 "$T/out")" "**gate-percent would have raised 9 alerts in 156 runs judged, 4 runs without limits: 2 of 3 reference regressions caught (recall 0.67, precision 1.00), 0 false alarms (0 per 100 runs judged), detected 0 runs late on average (at most 0) (reference: injected-steps, within 5 runs)**" \
    "backtest, Markdown: the answer on stdout's first line"
expect_eq "$(sed -n 2p "$T/out")$(sed -n 3p "$T/out" | cut -c1-6)" "| kind" "backtest, Markdown: a blank line, then the table"

# --within changes what counts as a hit; --since what is judged.
run bd backtest gate-ttest --within 1 --format json --no-record
python3 -c '
import json, sys
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
t = json.load(open("out"))[0]
assert t["kind"] == "total" and t["alerts"] == 11 and t["detected"] == 3 and t["false_alarms"] == 8, t
' || fail "--within 1: $(head -c 400 out)"
checks=$((checks + 1))
run bd backtest gate-ttest --since 2025-11-15 --format json --no-record
python3 -c '
import json
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
rows = json.load(open("out"))
t = rows[0]
# Nights 25-40 (from 2025-11-15) of four histories are judged: the steps
# at nights 33 (ci-b small) and 37 (ci-a large) count, the one at night 20
# (ci-a small) falls before.
assert t["runs"] == 4 * 16, t
assert t["events"] == 2, t
assert all(r["seq"] >= 25 for r in rows if r["kind"] in ("alert", "missed")), rows
' || fail "--since: $(head -c 400 out)"
checks=$((checks + 1))

# Nothing to judge (--since after the last night): every rate undefined,
# said in words, none printed as a number.
run bd backtest gate-ttest --since 2025-12-31 --no-record
expect_rc 0 "backtest, nothing judged"
expect_err_has "gate-ttest would have raised 0 alerts in 0 runs judged: no reference regression to catch (recall undefined, precision undefined), 0 false alarms (per 100 runs judged undefined)" "nothing judged: the sentence"
checks=$((checks + 1))
! grep -qiw nan "$T/out" "$T/err" || fail "nothing judged: a rate printed as nan: $(grep -iw nan "$T/out" "$T/err")"

finish
