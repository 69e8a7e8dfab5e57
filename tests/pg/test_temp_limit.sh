# A query's temporary files on PostgreSQL (docs/postgresql.md, "Disk and
# memory"): --max-temp-bytes bounds SQLite's; on a server the bound is
# temp_file_limit, a superuser's setting. A plain role (a member of
# benchdb_reader, as analysts log in) may not set it, so benchdb cannot
# set it for its read-only sessions; set for the role by a superuser, as
# the docs say, it stops a reader's sort with the server's message (exit
# 1), which the role cannot undo; the same sort runs for a role without it.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_temp_limit
role=benchdb_temp_plain
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
as_plain="postgresql://$role@$PGHOST:$PGPORT/$db"
pg_emptydb "$db"
run bd --db "$uri" init
expect_rc 0 "init on PostgreSQL"
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $role" \
    -c "CREATE ROLE $role LOGIN IN ROLE benchdb_reader" >/dev/null

# 0. benchdb's own limits bound nothing here: asked for, they are said to
# be dropped (a warning naming each), the query runs; not asked, nothing said.
run bd --db "$uri" sql --format csv --max-temp-bytes 1M "SELECT 1"
expect_rc 0 "sql --max-temp-bytes on PostgreSQL"
expect_err_has "warning: sql: --max-temp-bytes bounds nothing on PostgreSQL: the server's temp_file_limit and work_mem do" \
    "--max-temp-bytes named as not applied"
run bd --db "$uri" query --no-record regressions --max-memory 64M --max-temp-bytes 1G
expect_rc 0 "query with both limits on PostgreSQL"
expect_err_has "warning: query: --max-temp-bytes and --max-memory bound nothing on PostgreSQL" "both named"
run bd --db "$uri" sql --format csv "SELECT 1"
expect_rc 0 "sql without the limits"
checks=$((checks + 1))
[ ! -s "$T/err" ] || fail "a warning without --max-temp-bytes or --max-memory: $(cat "$T/err")"

# 1. A plain role may not set it, nor lower it.
run pg -d "$db" -U "$role" -c "SET temp_file_limit = '1MB'"
checks=$((checks + 1))
[ "$rc" != 0 ] || fail "a plain role set temp_file_limit"
expect_err_has 'permission denied to set parameter "temp_file_limit"' "a plain role: refused"

# 2. Set for the role by a superuser, it bounds the role's sorts: 200,000
# rows of 100 bytes sorted past work_mem (4 MB) write some 20 MB.
pg -d postgres -c "ALTER ROLE $role SET temp_file_limit = '1MB'" >/dev/null
sort="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
SELECT x FROM c ORDER BY repeat('a', 100) || x LIMIT 1 OFFSET 199999"
run bd --db "$as_plain" sql "$sort"
expect_rc 1 "a sort past temp_file_limit"
expect_err_has "temporary file size exceeds temp_file_limit (1024kB)" "the server's message"
run bd --db "$as_plain" sql "SET temp_file_limit = -1"
expect_rc 1 "the role cannot lift it"
# Without it (the superuser's session) the same sort runs.
run bd --db "$uri" sql --format csv "$sort"
expect_rc 0 "the sort without temp_file_limit"
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" 99999 "the sort's last row"

pg_dropdb "$db" >/dev/null
pg -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null
finish
