# benchdb sql: output formats, read-only by default, --write, parameters,
# several statements, --file, errors and exit codes.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd sql --write "CREATE TABLE t(name TEXT, n INTEGER, x REAL, note TEXT);
INSERT INTO t VALUES ('alpha', 1, 0.5, NULL), ('be,ta \"q\"', 22, -3.0, 'a|b'), ('gämma', 333, 1e-9, 'line1
line2')" >/dev/null

q="SELECT name, n, x, note FROM t ORDER BY n"

run bd sql "$q"
expect_rc 0 "table"
expect_out "name         n      x  note
---------  ---  -----  ------------
alpha        1    0.5
be,ta \"q\"   22   -3.0  a|b
gämma      333  1e-09  line1\\nline2" "table output aligns columns, numbers to the right"

run bd sql "$q" --format csv
expect_rc 0 "csv"
printf 'name,n,x,note\r\nalpha,1,0.5,\r\n"be,ta ""q""",22,-3.0,a|b\r\ngämma,333,1e-09,"line1\nline2"\r\n' >"$T/want"
cmp -s "$T/out" "$T/want" || { fail "csv output follows RFC 4180"; diff "$T/want" "$T/out" >&2; }
checks=$((checks + 1))

run bd sql "$q" --format json
expect_rc 0 "json"
expect_out '[
  {"name": "alpha", "n": 1, "x": 0.5, "note": null},
  {"name": "be,ta \"q\"", "n": 22, "x": -3.0, "note": "a|b"},
  {"name": "gämma", "n": 333, "x": 1e-09, "note": "line1\nline2"}
]' "json output: array of objects, numbers as numbers, NULL as null"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[1]["n"] == 22 and d[0]["note"] is None' "$T/out" ||
    fail "json output parses with Python"

run bd sql "$q" --format markdown
expect_rc 0 "markdown"
expect_out '| name      | n   | x     | note           |
| --------- | --: | ----: | -------------- |
| alpha     |   1 |   0.5 |                |
| be,ta "q" |  22 |  -3.0 | a\|b           |
| gämma     | 333 | 1e-09 | line1<br>line2 |' "markdown pipe table"

run bd sql "SELECT 1 AS one WHERE 0" --format json
expect_out "[]" "an empty result in json"
# JSON has no infinity (nor NaN: SQLite gives NULL for it): null
run bd sql "SELECT 9e999 AS up, -9e999 AS down" --format json
expect_out '[
  {"up": null, "down": null}
]' "an infinite real in json is null"
run bd sql "SELECT 1 AS one WHERE 0" --format csv
expect_out "$(printf 'one\r')" "an empty result in csv has its header"

# Read-only unless --write.
run bd sql "DELETE FROM run"
expect_rc 1 "a write without --write"
expect_err_has "error: sql: the store is opened read-only" "read-only message"
expect_err_has "(pass --write to change it)" "read-only message says how"
run bd sql "INSERT INTO t VALUES ('x', 9, 9, 9)"
expect_rc 1 "an insert without --write"
run bd sql "SELECT count(*) FROM t" --format csv
expect_out "$(printf 'count(*)\r\n3\r')" "nothing was written"
run bd sql --write "INSERT INTO t VALUES ('delta', 4, 4.25, NULL)"
expect_rc 0 "a write with --write"
run bd sql "SELECT count(*) FROM t" --format csv
expect_out "$(printf 'count(*)\r\n4\r')" "--write wrote"

# The read-only guard: no route from a read-only sql to a change.
for stmt in "ATTACH 'other.db' AS o" "PRAGMA journal_mode = DELETE" "PRAGMA query_only = 0" \
            "PRAGMA user_version = 7" "CREATE TEMP TABLE x(a)" \
            "VACUUM INTO 'copy.db'" "REINDEX" "ANALYZE" "PRAGMA writable_schema = ON"; do
    run bd sql "$stmt"
    expect_rc 1 "refused read-only: $stmt"
    expect_err_has "error: sql: the store is opened read-only" "read-only message for: $stmt"
done
[ ! -e other.db ] && [ ! -e copy.db ] || fail "no file was created by a read-only sql"
run bd sql "UPDATE sqlite_master SET sql = ''"
expect_rc 1 "the schema cannot be rewritten"
expect_err_has "error: sql: table sqlite_master may not be modified" "schema write message"
run bd sql "SELECT load_extension('/nonexistent')"
expect_rc 1 "load_extension refused"
expect_err_has "error: sql: not authorized to use function: load_extension" "load_extension message"
run bd sql "PRAGMA table_info(t)" --format csv
expect_rc 0 "inspection pragmas with an argument are allowed"
expect_out_has "name,TEXT" "table_info works"
run bd sql "PRAGMA journal_mode" --format csv
expect_out "$(printf 'journal_mode\r\nwal\r')" "a pragma query is allowed"
run bd sql "SELECT count(*) FROM json_each('[1,2,3]')" --format csv
expect_out "$(printf 'count(*)\r\n3\r')" "table-valued functions (json_each) work read-only"
run bd sql "PRAGMA integrity_check" --format csv
expect_out "$(printf 'integrity_check\r\nok\r')" "integrity_check is allowed"

# Parameters are bound, never pasted: quotes and semicolons stay data.
evil="x'); DROP TABLE t; --"
run bd sql --write "INSERT INTO t(name) VALUES (:v)" --param "v=$evil"
expect_rc 0 "insert a hostile value"
run bd sql "SELECT name FROM t WHERE name = :v" --param "v=$evil" --format csv
expect_out "$(printf 'name\r\n%s\r' "$evil")" "the hostile value came back as data"
run bd sql "SELECT count(*) FROM t" --format csv
expect_out "$(printf 'count(*)\r\n5\r')" "the table survived"
run bd sql "SELECT typeof(:a), typeof(:b), typeof(:c), typeof(:d), :a + :b" -p a=42 -p b=2.5 -p c=abc -p d=0x10 --format csv
expect_out "$(printf 'typeof(:a),typeof(:b),typeof(:c),typeof(:d),:a + :b\r\ninteger,real,text,text,44.5\r')" "numbers bind as numbers, the rest as text"
run bd sql "SELECT :a" --param ':a=1' --format csv
expect_out "$(printf ':a\r\n1\r')" ":name accepted"
run bd sql "SELECT :a" --param ':a=1' -p a=2 --format csv
expect_rc 2 "a repeated --param"
expect_err_has "error: sql: --param 'a=2': a is given twice (give each parameter once)" "a repeated --param is refused"
# A value binds as a number only when it is written as a plain number:
# nothing of its text is lost by binding it so.
run bd sql "SELECT typeof(:a), :a, typeof(:b), :b, typeof(:c), typeof(:d), typeof(:e), typeof(:f), typeof(:g)" \
    -p a=007 -p b=1.10 -p c=+3 -p d=-0.5 -p e=1e-9 -p f=1. -p g=99999999999999999999 --format csv
expect_out "$(printf '%s\r\n%s\r' 'typeof(:a),:a,typeof(:b),:b,typeof(:c),typeof(:d),typeof(:e),typeof(:f),typeof(:g)' \
  'text,007,text,1.10,text,real,real,text,text')" "007, 1.10, +3, 1. and an integer out of range stay text"
run bd sql "SELECT :missing"
expect_rc 2 "a parameter without a value"
expect_err_has "error: sql: parameter :missing has no value (pass --param missing=VALUE)" "missing parameter message"
run bd sql "SELECT 1" -p nosuch=1
expect_rc 2 "an unused parameter"
expect_err_has "error: sql: --param nosuch: the SQL has no parameter :nosuch" "unused parameter message"
run bd sql "SELECT 1" -p novalue
expect_rc 2 "a parameter without ="
expect_err_has "error: sql: --param 'novalue': expected NAME=VALUE" "malformed parameter message"

# Several statements run in order; the last one's rows print.
run bd sql "SELECT 1 AS a; SELECT 2 AS b;  -- trailing comment" --format csv
expect_out "$(printf 'b\r\n2\r')" "the last statement's rows"
printf 'SELECT 10 AS ten;\n/* a comment */\nSELECT :p * 2 AS twice;\n' >q.sql
run bd sql --file q.sql -p p=21 --format csv
expect_rc 0 "--file"
expect_out "$(printf 'twice\r\n42\r')" "--file runs the file"
run sh -c "echo 'SELECT 7 AS seven' | '$BENCHDB_BIN' sql --file - --format csv"
expect_out "$(printf 'seven\r\n7\r')" "--file - reads standard input"

# Errors.
run bd sql "SELEC 1"
expect_rc 1 "a syntax error"
expect_err_has 'error: sql: near "SELEC": syntax error' "syntax error message"
run bd sql "SELECT 1; SELECT * FROM nosuch"
expect_rc 1 "an error in a later statement"
expect_err_has "error: sql: no such table: nosuch" "later error message"
run bd sql ""
expect_rc 2 "empty SQL"
run bd sql
expect_rc 2 "no SQL"
expect_err_has "error: sql: missing the SQL text" "no SQL message"
run bd sql "SELECT 1" "SELECT 2"
expect_rc 2 "two SQL arguments"
run bd sql "SELECT 1" --format xml
expect_rc 2 "unknown format"
expect_err_has "error: sql: --format 'xml': expected one of table, vertical, csv, json, markdown (see 'benchdb sql --help')" "unknown format message"
run bd sql --file nosuch.sql
expect_rc 1 "a missing --file"
expect_err_has "error: nosuch.sql: cannot open: No such file or directory" "missing file message"
run bd sql "SELECT benchdb_version()" --format csv
expect_out_has "0." "benchdb_version() is registered"

# A dot command binds no parameter: --param with one went unused, unsaid
run bd sql .tables -p x=1
expect_rc 2 "a dot command with --param"
expect_err_has "error: sql: --param binds :NAME in SQL; a dot command (.tables) takes none" "says so"

# Output to a full disk is a failure, not a success.
if [ -w /dev/full ]; then
    bd sql "SELECT 1" >/dev/full 2>"$T/err"
    rc=$?
    expect_rc 1 "writing to a full disk"
    # said once, with why (main said it again: "cannot write to standard output")
    expect_eq "$(grep -c . "$T/err") $(cat "$T/err")" "1 error: sql: cannot write the output: No space left on device" \
        "a full disk said once"
    bd sql .tables >/dev/full 2>"$T/err"
    rc=$?
    expect_rc 1 "a dot command writing to a full disk"
    expect_eq "$(grep -c . "$T/err")" 1 "a dot command's full disk said once"
fi

# docs/functions.md: every ```sql example that runs alone (no "..." in it)
# prints the result its "-- " comment lines give (a line of prose, a
# parenthesised aside left out; whitespace aside; NULL for an empty value).
run python3 - "$BENCHDB_SRC/docs/functions.md" "$BENCHDB_BIN" <<'PY'
import csv, io, re, subprocess, sys
doc = open(sys.argv[1], encoding="utf-8").read()
n, bad = 0, []
for block in re.findall(r"```sql\n(.*?)```", doc, re.S):
    items, sql, want = [], [], []
    for line in block.splitlines():
        if line.startswith("--"):
            want.append(line[2:].strip())
            continue
        if want:
            items.append((sql, want))
            sql, want = [], []
        sql.append(line.split(" -- ")[0])
    if sql:
        items.append((sql, want))
    for sql, want in items:
        sql = "\n".join(sql)
        if "..." in sql or not want:
            continue
        want = " ".join(w for w in want if not re.match(r"[A-Z][a-z]* [a-z]", w))
        want = re.sub(r"\s+\([^\"]*\)$", "", want)
        r = subprocess.run([sys.argv[2], "sql", "--format", "csv", sql], capture_output=True, text=True)
        rows = list(csv.reader(io.StringIO(r.stdout)))[1:]
        got = " | ".join(", ".join(v if v != "" else "NULL" for v in row) for row in rows)
        n += 1
        if r.returncode != 0 or re.sub(r"\s", "", got) != re.sub(r"\s", "", want):
            bad.append("%s\n  the doc: %s\n  prints:  %s%s" % (sql, want, got, r.stderr))
print("\n".join(bad) if bad else "%d examples" % n)
sys.exit(1 if bad or n < 25 else 0)
PY
expect_rc 0 "docs/functions.md's examples print what it says: $(cat "$T/out")"

finish
