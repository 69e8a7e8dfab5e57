# --max-rows on PostgreSQL stops reading (docs/postgresql.md, "Reading a
# result"): a query of a read-only transaction reads its rows through a
# cursor in batches, so a result of 50 million rows stopped at 10 gives
# SQLite's output and message, with the client's peak memory that of a
# small result (a whole read of even 2 million rows, which sql --write
# still does, takes several times more: the measure can tell them apart);
# the same through a saved query; and --timeout stops such a query.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
[ -x /usr/bin/time ] || { echo "FAIL: /usr/bin/time (GNU time) is missing (scripts/install-deps installs it)" >&2; exit 1; }
db=benchdb_max_rows
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db"
run bd --db "$uri" init
expect_rc 0 "init on PostgreSQL"
run bd --db "$T/s.db" init
expect_rc 0 "init on SQLite"

# peak_kb FILE: the peak resident memory GNU time wrote to FILE (KiB).
peak_kb() { sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$1"; }

# 50 million rows on both engines, the SQL both run.
big="WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 50000000) SELECT x FROM g"
bd --db "$T/s.db" sql --max-rows 10 "$big" >"$T/lite.out" 2>"$T/lite.err"
lrc=$?
/usr/bin/time -v -o "$T/time" "$BENCHDB_BIN" --db "$uri" sql --timeout 60 --max-rows 10 "$big" >"$T/pg.out" 2>"$T/pg.err"
prc=$?
expect_eq "$lrc $prc" "1 1" "--max-rows 10 over 50 million rows: exit 1 on both"
expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "the same message as SQLite's"
expect_eq "$(cat "$T/pg.err")" "error: sql: the result passed 10 rows (--max-rows 10; raise it with --max-rows N)" "the limit's message"
expect_eq "$(cat "$T/pg.out")" "$(cat "$T/lite.out")" "the same stdout"
streamed=$(peak_kb "$T/time")
checks=$((checks + 1))
[ -n "$streamed" ] && [ "$streamed" -lt 65536 ] || fail "peak memory ${streamed:-?} KiB for 10 rows of 50 million (at most 64 MiB)"

# A set-returning function in the select list (computed as rows are
# fetched), through --format csv.
/usr/bin/time -v -o "$T/time" "$BENCHDB_BIN" --db "$uri" sql --max-rows 10 --format csv "SELECT generate_series(1, 50000000) AS x" >"$T/pg.out" 2>"$T/pg.err"
expect_eq "$?" 1 "generate_series: exit 1"
expect_eq "$(cat "$T/pg.err")" "error: sql: the result passed 10 rows (--max-rows 10; raise it with --max-rows N)" "generate_series: the limit's message"
checks=$((checks + 1))
[ "$(peak_kb "$T/time")" -lt 65536 ] || fail "generate_series: peak memory $(peak_kb "$T/time") KiB"

# The measure tells a whole read apart: sql --write reads its result whole
# (no read-only transaction), and 2 million rows take far more.
/usr/bin/time -v -o "$T/time" "$BENCHDB_BIN" --db "$uri" sql --write --max-rows 10 "SELECT generate_series(1, 2000000) AS x" >/dev/null 2>"$T/pg.err"
expect_eq "$?" 1 "a whole read: exit 1"
whole=$(peak_kb "$T/time")
checks=$((checks + 1))
[ "$whole" -gt $((streamed * 3)) ] || fail "a whole read of 2 million rows peaked at $whole KiB, streaming 50 million at $streamed KiB: the measure cannot tell them apart"

# A saved query stopped the same way on both engines.
mkdir -p "$T/q" && printf -- '-- name: big\n%s\n' "$big" >"$T/q/big.sql"
bd --db "$T/s.db" query --queries "$T/q" --no-record --max-rows 10 big >"$T/lite.out" 2>"$T/lite.err"
lrc=$?
/usr/bin/time -v -o "$T/time" "$BENCHDB_BIN" --db "$uri" query --queries "$T/q" --no-record --max-rows 10 big >"$T/pg.out" 2>"$T/pg.err"
prc=$?
expect_eq "$lrc $prc" "1 1" "query --max-rows 10: exit 1 on both"
expect_eq "$(cat "$T/pg.err")" "$(cat "$T/lite.err")" "query: the same message as SQLite's"
expect_eq "$(cat "$T/pg.out")" "$(cat "$T/lite.out")" "query: the same stdout"
checks=$((checks + 1))
[ "$(peak_kb "$T/time")" -lt 65536 ] || fail "query: peak memory $(peak_kb "$T/time") KiB"

# Under the limit, every row arrives (batches of 64, 128, ... 8192 and a
# short last one), in order.
run bd --db "$uri" sql --format csv "SELECT generate_series(1, 20000) AS x"
expect_rc 0 "20,000 rows"
checks=$((checks + 1))
tr -d "\r" <"$T/out" >"$T/rows"
seq 1 20000 | sed "1i x" | cmp -s - "$T/rows" || fail "20,000 rows: not 1..20000 in order"

# --timeout stops a query read in batches, with SQLite's message (that it
# bounds the whole query rather than each FETCH is by construction: each
# FETCH runs with the time left; no timing is asserted here, timings
# belong in make bench).
run bd --db "$uri" sql --timeout 3 "SELECT pg_sleep(0.02), g FROM generate_series(1, 1000) AS g"
expect_rc 1 "--timeout 3"
expect_err_has "sql: stopped after 3 s" "the time limit named"

pg_dropdb "$db" >/dev/null
finish
