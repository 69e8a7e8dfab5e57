# Every saved query is written in the SQL both SQLite and PostgreSQL run
# (docs/portable-sql.md): tests/cli/lib/portable_sql.py names each
# construct one engine lacks, with file and line. The checker is first
# shown a query with every such construct, so that a rule it stopped
# seeing would fail here too.
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
cat > "$T/bad.sql" <<'SQL'
-- iif( in a comment is fine, and so is 'rowid' in a string
SELECT json_extract(a, '$.x'), group_concat(b), iif(c, 1, 0), typeof(d),
       rowid, printf('%d', e), round(f, 2), sum(k = 'within')
FROM t WHERE s = 'rowid' AND a IS b AND c IS NOT d;
INSERT OR IGNORE INTO t VALUES (1);
SQL
out=$(python3 "$LIB/portable_sql.py" "$T/bad.sql") && fail "the checker passed a query it must refuse"
n=$(printf '%s\n' "$out" | wc -l)
[ "$n" -eq 12 ] || fail "expected 12 findings in the bad query, got $n: $out"
printf '%s\n' "$out" | grep -q "bad.sql:1:" && fail "a comment was read as SQL: $out"
printf '%s\n' "$out" | grep -q "bad.sql:4: rowid" && fail "a string was read as SQL: $out"
python3 "$LIB/portable_sql.py" "$BENCHDB_SRC" || fail "a saved query is not in the SQL both engines run"
