#!/bin/sh
# A back-test is recorded like any evaluation: 'benchdb history' lists it,
# its recorded text (the gate's and the reference's statements and the
# scoring) re-run with its recorded parameters gives its recorded rows,
# 'history --diff' compares two; the reference can be the regressions; any
# saved query with the gate columns and a 'scope' offering 'every' is a
# gate; usage errors exit 2 and runtime ones 1.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }

bd simulate -q --history 30 --hosts 2 --cells 2 --steps 2 --seed 5 sim
bd init >/dev/null
bd ingest -q sim

run bd backtest gate-zscore --within 3
expect_rc 0 "backtest, recorded"
expect_err_has "recorded as evaluation 1 (see 'benchdb history backtest-gate-zscore')" "evaluation id"
run bd history backtest-gate-zscore --format json
expect_rc 0 "history lists the back-test"
python3 -c '
import json
e = json.load(open("out"))
assert len(e) == 1 and e[0]["query"] == "backtest-gate-zscore", e
p = e[0]["params"]
p = json.loads(p) if isinstance(p, str) else p
assert p["within"] == 3 and p["scope"] == "every" and p["threshold"] == 5 and p["svs"] == "best", p
# 4 histories of 30 nights, the first 8 of each without limits (min_runs)
assert e[0]["outcome"].endswith("in 88 runs judged, 32 runs without limits"), e[0]["outcome"]
' || fail "history row: $(cat out)"
checks=$((checks + 1))

# The recorded text holds the gate's statement and names its SHA-256.
bd sql "SELECT query_text FROM evaluation WHERE id = 1" --format json >text.json
python3 - "$BENCHDB_SRC/queries/gate-zscore.sql" <<'PY' || fail "the recorded text"
import hashlib, json, sys
text = json.load(open("text.json"))[0]["query_text"]
gate = open(sys.argv[1], encoding="utf-8").read()
assert "-- name: backtest-gate-zscore\n" in text, text[:200]
assert "gate-zscore (built-in, sha256 %s)" % hashlib.sha256(gate.encode()).hexdigest() in text, text[:1200]
statement = gate[gate.index("WITH\n"):gate.rindex("ORDER BY")].rstrip()
assert statement in text, "the gate's statement (without its final ORDER BY) is not in the text"
open("bt.sql", "w", encoding="utf-8").write(text)
PY
checks=$((checks + 1))

# Re-running the recorded text with the recorded parameters gives the
# recorded rows (what 'history --verify' does).
set -- $(bd sql "SELECT '--param ' || key || '=' || value FROM evaluation, json_each(params) WHERE evaluation.id = 1 AND value IS NOT NULL" --format csv | tail -n +2 | tr -d '\r')
run bd query bt.sql "$@" --format json --no-record
expect_rc 0 "re-run the recorded text"
bd sql "SELECT rows FROM evaluation WHERE id = 1" --format json >recorded.json
python3 -c '
import json
again = json.load(open("out"))
recorded = json.load(open("recorded.json"))[0]["rows"]
recorded = json.loads(recorded) if isinstance(recorded, str) else recorded
def norm(rows):  # JSON output nests JSON-valued text; recorded rows keep it as text
    def v(x):
        if isinstance(x, str) and x[:1] in "{[":
            try:
                return json.loads(x)
            except ValueError:
                pass
        return x
    return [{k: v(x) for k, x in r.items()} for r in rows]
assert norm(again) == norm(recorded), (len(again), len(recorded))
assert recorded[0]["kind"] == "total", recorded[0]
' || fail "the re-run differs from the recorded rows"
checks=$((checks + 1))

# Two back-tests of one gate: history --diff names what changed.
run bd backtest gate-zscore --within 1
expect_rc 0 "second back-test"
run bd history --diff 1 2
expect_rc 0 "history --diff"
expect_err_has "parameters: within: 3 -> 1" "diff: the parameter"
expect_err_has "rule text:  same" "diff: same text"

# The reference can be the change points of 'regressions'.
run bd backtest gate-percent --reference regressions --param max_pvalue=0.01 --format json --no-record
expect_rc 0 "reference: regressions"
bd query regressions --param max_pvalue=0.01 --format json --no-record >cps.json
python3 -c '
import json
rows = json.load(open("out"))
cps = json.load(open("cps.json"))
regs = [c for c in cps if c["kind"] == "regression"]
assert rows[0]["events"] == len(regs) > 0, (rows[0], len(regs))
' || fail "events are the regressions' change points"
checks=$((checks + 1))
# A reference without a column the back-test reads: one error that names
# the column and what each side returns (not SQLite's message alone).
run bd backtest gate-percent --reference trend --no-record
expect_rc 1 "a reference without kind"
expect_eq "$(wc -l <"$T/err")" 1 "one error line"
expect_err_has "error: backtest: gate-percent or its reference trend lacks a column the back-test reads (no such column: kind): a gate returns" \
    "the column and what a reference returns"

# Any saved query with the gate's columns and scope=every is a gate.
mkdir q
sed -e 's/^-- name: gate-percent$/-- name: my-gate/' -e 's/^-- param: percent = 5 /-- param: percent = 1 /' \
    "$BENCHDB_SRC/queries/gate-percent.sql" >q/my-gate.sql
run bd backtest my-gate --queries q --format json --no-record
expect_rc 0 "a gate of one's own"
run bd backtest gate-percent --param percent=1 --format json --no-record
cp out builtin.json
run bd backtest my-gate --queries q --format json --no-record
python3 -c '
import json
a, b = json.load(open("out")), json.load(open("builtin.json"))
assert a == b and a[0]["alerts"] > 0, (a[0], b[0])
' || fail "my-gate at 1% gives gate-percent's rows at 1%"
checks=$((checks + 1))

# Usage errors (exit 2) and runtime errors (exit 1).
run bd backtest
expect_rc 2 "no gate"
expect_err_has "backtest: missing the gate" "no gate: message"
run bd backtest gate-zscore --within 0
expect_rc 2 "--within 0"
expect_err_has "backtest: --within '0': expected an integer from 1 to 1000000" "--within 0: message"
run bd backtest gate-zscore --since yesterday
expect_rc 2 "--since yesterday"
expect_err_has "backtest: --since 'yesterday': expected a date (2026-01-31) or an RFC 3339 time" "--since: message"
run bd backtest gate-zscore --param nope=1
expect_rc 2 "unknown parameter"
expect_err_has "backtest gate-zscore: no parameter named 'nope'" "unknown parameter: message"
run bd backtest gate-zscore --param svs=worst
expect_rc 2 "a parameter outside its choices"
expect_err_has "svs=worst: expected one of best, mean" "choices: message"
run bd backtest trend
expect_rc 1 "not a gate"
expect_err_has "backtest: trend (built-in) is not a gate: it needs a parameter 'scope' with the choice 'every'" "not a gate: message"
run bd backtest no-such-gate
expect_rc 2 "no such query: a usage error, as query's"
expect_err_has "error: backtest: no saved query named 'no-such-gate'" "no such query: its message"
sed -e 's/^-- param: host = null /-- param: host = ci-a /' "$BENCHDB_SRC/queries/injected-steps.sql" >q/ref.sql
run bd backtest gate-zscore --queries q --reference q/ref.sql
expect_rc 1 "a reference whose parameter clashes with the gate's"
expect_err_has "backtest: the parameter 'host' is gate-zscore's (default null) and injected-steps's (default ci-a)" "clash: message"
grep -v '^-- param: host\|^-- param: plan\|^-- param: since\|^-- type: host\|^-- type: plan\|^-- type: since' "$BENCHDB_SRC/queries/gate-percent.sql" |
    sed -e 's/^-- name: gate-percent$/-- name: bare-gate/' -e 's/(:host IS NULL OR host = :host) AND (:plan IS NULL OR plan = :plan)/1 = 1/' \
        -e 's/ AND (:since IS NULL OR s.started >= :since)//' >q/bare-gate.sql
run bd backtest bare-gate --queries q --since 2026-01-01 --no-record
expect_rc 2 "--since on a gate without a since parameter"
expect_err_has "backtest: --since: bare-gate has no parameter 'since'" "--since: message"
run bd backtest bare-gate --queries q --no-record
expect_rc 0 "a gate without host, plan, since"

finish
