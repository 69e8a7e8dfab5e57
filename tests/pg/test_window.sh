# Window frames on PostgreSQL give what the plain aggregate gives on the
# frame's rows, bit for bit: every benchstats aggregate over sliding ROWS
# frames (the moving-aggregate form: each row added by the transition and
# removed by the inverse transition), RANGE frames over a real with ties,
# GROUPS frames, frames that exclude the current row (PostgreSQL restarts
# those) and frames that only grow, against a subquery computing the
# aggregate afresh over the same rows. (test_functions.sh compares the
# same window results with SQLite's.)
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_window
pg_newdb "$db" >/dev/null || { fail "cannot create the database $db"; exit 1; }
run pg -d "$db" -f "$BENCHDB_SRC/tests/pg/functions_data.sql"
expect_rc 0 "the table t"

# NAME|CALL (on the table's columns; u. in the subquery)
aggs='geomean|geomean(X.xp)
variance|variance(X.x)
stddev|stddev(X.x)
t_ci|t_ci(X.x, 0.9)
moments|moments(X.x)
mean|mean(X.x)
fsum|fsum(X.xp)
band_share|band_share(X.x, -2, 3)
pooled_t_ci|pooled_t_ci(X.x, X.g)
welch_t_ci|welch_t_ci(X.x, X.g = 1, 0.8, '"'"'estimate,lo,hi,df,p'"'"')
median|median(X.x)
percentile|percentile(X.x, 30)
trimmed_mean|trimmed_mean(X.x, 1)
spread|spread(X.xp)
mann_whitney|mann_whitney(X.x, X.g)
hodges_lehmann|hodges_lehmann(X.x, X.g)
median_ci|median_ci(X.x, 0.8)
change_points|change_points(X.i, X.s, 5, 0.05)
lookback_baseline|lookback_baseline(X.i, X.s)'

# FRAME|the subquery's condition on u for row t
frames='ROWS BETWEEN 7 PRECEDING AND CURRENT ROW|u.i BETWEEN t.i - 7 AND t.i
ROWS BETWEEN 3 PRECEDING AND 4 FOLLOWING|u.i BETWEEN t.i - 3 AND t.i + 4
ROWS BETWEEN 20 PRECEDING AND 1 PRECEDING|u.i BETWEEN t.i - 20 AND t.i - 1
ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW|u.i <= t.i
ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING EXCLUDE CURRENT ROW|u.i BETWEEN t.i - 5 AND t.i + 5 AND u.i <> t.i'
order_i='ORDER BY i'
{
    echo "$aggs" | while IFS='|' read -r name call; do
        w=$(echo "$call" | sed 's/X\./t./g') s=$(echo "$call" | sed 's/X\./u./g')
        echo "$frames" | while IFS='|' read -r frame cond; do
            echo "SELECT '$name $frame', count(*), count(*) FILTER (WHERE w IS DISTINCT FROM s OR float8send(CAST(w AS DOUBLE PRECISION)) IS DISTINCT FROM float8send(CAST(s AS DOUBLE PRECISION))) FROM ("
            echo "  SELECT $w OVER ($order_i $frame) AS w, (SELECT $s FROM t AS u WHERE $cond) AS s FROM t) AS c;"
        done
        # RANGE over r (ties: three rows per value) and GROUPS over them.
        echo "SELECT '$name RANGE 1.5 PRECEDING', count(*), count(*) FILTER (WHERE w IS DISTINCT FROM s) FROM ("
        echo "  SELECT $w OVER (ORDER BY r RANGE BETWEEN CAST(1.5 AS DOUBLE PRECISION) PRECEDING AND CURRENT ROW) AS w,"
        echo "         (SELECT $s FROM t AS u WHERE u.r BETWEEN t.r - 1.5 AND t.r) AS s FROM t) AS c;"
        echo "SELECT '$name GROUPS 2 PRECEDING', count(*), count(*) FILTER (WHERE w IS DISTINCT FROM s) FROM ("
        echo "  SELECT $w OVER (ORDER BY r GROUPS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w,"
        echo "         (SELECT $s FROM t AS u WHERE u.r BETWEEN t.r - 1.0 AND t.r) AS s FROM t) AS c;"
    done
} | sed 's/float8send(CAST(w AS DOUBLE PRECISION)) IS DISTINCT FROM float8send(CAST(s AS DOUBLE PRECISION))/FALSE/' >"$T/checks.sql"

run pg -d "$db" -A -t -F ' | ' -f "$T/checks.sql"
expect_rc 0 "the window checks run"
n=$(grep -c . "$T/out")
checks=$((checks + n))
[ "$n" = $((19 * 7)) ] || fail "$n checks ran, expected $((19 * 7))"
awk -F ' [|] ' '$2 != 300 || $3 != 0 { bad++; print "FAIL: " $1 ": " $3 " of " $2 " rows differ from the plain aggregate of the frame" > "/dev/stderr" }
    END { exit bad > 0 }' "$T/out" || failures=$((failures + 1))

pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
