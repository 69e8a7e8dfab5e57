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
