# What a program reads from --format json --envelope: the same members
# whatever the case (a member that is there only sometimes breaks a
# script's d["member"]), and the answer a person reads first on stderr
# carried as data (docs/queries.md, "Output formats": the envelope).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
H=$BENCHDB_SRC/tests/data/harness
S=$BENCHDB_SRC/tests/data/benchstat

# members FILE KEY...: FILE is one JSON object holding every KEY.
members() {
    f=$1
    shift
    python3 - "$f" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
missing = [k for k in sys.argv[2:] if k not in d]
assert not missing, (missing, sorted(d))
PY
}

# --- compare: `evaluation` (null when nothing was recorded) and `failures`
# ([] when the harness reported none), on files and on a store alike.
run bd compare "$S/old.txt" "$S/new.txt" --format json --envelope
expect_rc 0 "files"
members "$T/out" rows counts failures verdict evaluation notes || fail "files: every member"
python3 - "$T/out" <<'PY' || fail "files: nothing recorded is null, no failure is []"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["evaluation"] is None and d["failures"] == [], d
PY

bd init --db s.db >/dev/null
cp "$H/google-benchmark/error_base.json" base.json
cp "$H/google-benchmark/error_head.json" head.json
bd ingest --db s.db --plan p --run base --host h base.json >/dev/null 2>&1
bd ingest --db s.db --plan p --run base2 --host h base.json >/dev/null 2>&1
bd ingest --db s.db --plan p --run head --host h head.json >/dev/null 2>&1
run bd compare --db s.db --no-record base base2 --format json --envelope
expect_rc 0 "store, --no-record"
members "$T/out" rows counts failures verdict evaluation notes || fail "store, --no-record: every member"
python3 - "$T/out" <<'PY' || fail "store, --no-record: evaluation null, failures []"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["evaluation"] is None and d["failures"] == [], d
PY
run bd compare --db s.db base head --format json --envelope
expect_rc 0 "store, recorded"
python3 - "$T/out" <<'PY' || fail "store, recorded: its id, and the failure"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["evaluation"] == 1, d
assert [f["benchmark"] for f in d["failures"]] == ["BM_Parse"], d["failures"]
PY

# --- compare and query compare carry the same members a bot reads: `unmet`
# (why nothing was compared, the gate's exit 4; else null) and `counts`,
# with `cells_judged` (0 beside "passes" is the comment's "passes, judging
# no cell"). Compare had no `unmet`, query compare no `counts`.
printf 'BenchmarkA 1 100 ns/op\nBenchmarkB 1 200 ns/op\n' >one_a.txt
printf 'BenchmarkA 1 130 ns/op\nBenchmarkB 1 260 ns/op\n' >one_b.txt
printf 'BenchmarkX 1 100 ns/op\n' >other.txt
run bd compare one_a.txt other.txt --gate --format json --envelope
expect_rc 4 "files, nothing compared"
head_err=$(bd compare one_a.txt other.txt 2>&1 >/dev/null | head -n 1)
python3 - "$T/out" "$head_err" <<'PY' || fail "files, nothing compared: unmet is the first line's sentence"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["unmet"] and "compare: " + d["unmet"] == sys.argv[2], (d.get("unmet"), sys.argv[2])
assert d["counts"]["gate"] == "nothing compared" and d["counts"]["cells_judged"] == 0, d["counts"]
PY
run bd compare one_a.txt one_b.txt --gate --format json --envelope
expect_rc 0 "files, one value a side: inconclusive, the gate passes"
python3 - "$T/out" <<'PY' || fail "files, every cell inconclusive: unmet null, no cell judged"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["unmet"] is None, d.get("unmet")
c = d["counts"]
assert (c["gate"], c["inconclusive"], c["cells_compared"], c["cells_judged"]) == ("passes", 2, 2, 0), c
PY
run bd compare "$S/old.txt" "$S/new.txt" --format json --envelope
python3 - "$T/out" <<'PY' || fail "files, judged: unmet null, every compared cell judged"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["unmet"] is None and d["counts"]["cells_judged"] == d["counts"]["cells_compared"] > 0, d
PY
bd ingest --db s.db --plan p --run other --host h other.txt >/dev/null 2>&1
run bd compare --db s.db --no-record base head --format json --envelope
cp "$T/out" compare.json
run bd query compare --db s.db -p plan=p -p a=base -p b=head --format json --envelope
expect_rc 0 "query compare"
python3 - compare.json "$T/out" <<'PY' || fail "query compare: the counts compare's envelope has"
import json, sys
c, q = (json.load(open(f)) for f in sys.argv[1:])
assert "counts" in q and q["counts"] == c["counts"], (q.get("counts"), c["counts"])
assert q["unmet"] is None and c["unmet"] is None, (q["unmet"], c["unmet"])
PY
run bd compare --db s.db --no-record base other --gate --format json --envelope
expect_rc 4 "store, nothing compared"
cp "$T/out" compare.json
run bd query compare --db s.db -p plan=p -p a=base -p b=other --gate --format json --envelope
expect_rc 4 "query compare, nothing compared"
python3 - compare.json "$T/out" <<'PY' || fail "store, nothing compared: unmet and counts alike in both"
import json, sys
c, q = (json.load(open(f)) for f in sys.argv[1:])
assert c.get("unmet") and c["unmet"] == q["unmet"], (c.get("unmet"), q["unmet"])
assert q.get("counts") == c["counts"] and c["counts"]["gate"] == "nothing compared", (q.get("counts"), c["counts"])
PY
checks=$((checks + 6))

# --- The answer first, as data: what list, history, queries and migrate
# --status say on a terminal's first line is the envelope's `headline`.
for c in "list" "list runs" "list archives" "history" "queries" "migrate --status"; do
    # shellcheck disable=SC2086 # the command's words
    run bd --db s.db $c
    expect_rc 0 "$c"
    head -n 1 "$T/err" >"$T/first"
    # shellcheck disable=SC2086
    run bd --db s.db $c --format json --envelope
    expect_rc 0 "$c --envelope"
    checks=$((checks + 1))
    python3 - "$T/out" "$T/first" <<'PY' || fail "$c: the envelope's headline is the terminal's first line"
import json, sys
d = json.load(open(sys.argv[1]))
first = open(sys.argv[2]).read().rstrip("\n")
assert first and d.get("headline") == first, (d.get("headline"), first)
assert first not in d["notes"], d["notes"]
PY
done
# Bare JSON and CSV stay the rows alone.
run bd --db s.db history --format json
checks=$((checks + 1))
[ -s "$T/err" ] && fail "history --format json: stderr not empty: $(cat "$T/err")"
python3 -c 'import json, sys; assert isinstance(json.load(open(sys.argv[1])), list)' "$T/out" ||
    fail "history --format json: an array"

finish
