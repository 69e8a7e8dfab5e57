# Time limits (docs/reliability.md): '--timeout 1e19'
# fired at once (the deadline overflowed converting to time_t), and
# without --timeout an endless recursive CTE ran forever. Now --timeout is
# a number of seconds > 0 and at most a week (else a usage error), and
# 'sql' and every saved query stop after 60 s when no --timeout is given
# ($BENCHDB_TIMEOUT changes that default: this test lowers it rather than
# wait a minute), with a message saying how to raise the limit; a stopped
# query records nothing.
. "$BENCHDB_SRC/tests/cli/lib/rel_query.sh"
mkdir q
endless="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c"
finite="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) AS n FROM c"
printf -- '-- name: forever\n-- summary: never ends\n%s\n' "$endless" >q/forever.sql
printf -- '-- name: counted\n-- summary: counts to 300000\n%s\n' "$finite" >q/counted.sql
evaluations() { bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }

# 1. Values that are no time limit: a usage error on both commands, before
# anything runs.
for bad in 1e19 1e300 604801 inf -inf nan 0 -1 x ""; do
    run bd sql --timeout "$bad" "$finite"
    expect_rc 2 "sql --timeout '$bad'"
    expect_eq "$(cat "$T/err")" \
        "error: sql: --timeout '$bad': expected a number of seconds > 0, at most 604800 (a week) (see 'benchdb sql --help')" \
        "sql --timeout '$bad': message"
    run bd query --record --queries q counted --timeout "$bad"
    expect_rc 2 "query --timeout '$bad'"
    expect_err_has "error: query: --timeout '$bad': expected a number of seconds > 0, at most 604800 (a week)" \
        "query --timeout '$bad': message"
done

# 2. The largest limits do not fire at once (1e19 used to): the query runs
# to its end (300000 recursions: far more than one progress check).
for ok in 604800 1e5 0.5e6; do
    run bd sql --timeout "$ok" "$finite" --format csv
    expect_rc 0 "sql --timeout $ok"
    expect_out "$(printf 'n\r\n300000\r')" "sql --timeout $ok: the query ran to its end"
    run bd query --queries q counted --timeout "$ok" --no-record --format csv
    expect_out "$(printf 'n\r\n300000\r')" "query --timeout $ok: the query ran to its end"
done

# 3. No --timeout: the default stops an endless query ($BENCHDB_TIMEOUT
# standing in for the 60 s default, which the message then names).
run_bounded 60 env BENCHDB_TIMEOUT=0.5 "$B" sql "$endless"
expect_bounded "sql without --timeout" 30 64
expect_rc 1 "sql without --timeout: stopped"
expect_eq "$(cat "$T/err")" "error: sql: stopped after 0.5 s (\$BENCHDB_TIMEOUT=0.5; raise it with --timeout SECONDS)" \
    "sql without --timeout: message"
run_bounded 60 env BENCHDB_TIMEOUT=0.5 "$B" query --record --queries q forever
expect_bounded "query without --timeout" 30 64
expect_rc 1 "query without --timeout: stopped"
expect_eq "$(cat "$T/err")" \
    "error: query forever: stopped after 0.5 s (\$BENCHDB_TIMEOUT=0.5; raise it with --timeout SECONDS)" \
    "query without --timeout: message"
expect_eq "$(evaluations)" 0 "a stopped query records nothing"
run_bounded 60 env BENCHDB_TIMEOUT=0.5 "$B" sql --write "$endless"
expect_rc 1 "sql --write without --timeout: stopped too"
# --timeout wins over $BENCHDB_TIMEOUT, both ways.
run_bounded 60 env BENCHDB_TIMEOUT=30 "$B" query --record --queries q forever --timeout 0.3
expect_bounded "query --timeout 0.3 under \$BENCHDB_TIMEOUT=30" 20 64
expect_eq "$(cat "$T/err")" "error: query forever: stopped after 0.3 s (--timeout 0.3; raise it with --timeout SECONDS)" \
    "--timeout wins: message"
run env BENCHDB_TIMEOUT=0.001 "$B" query --record --queries q counted --timeout 60 --format csv
expect_rc 0 "--timeout raises a lower \$BENCHDB_TIMEOUT"
expect_out "$(printf 'n\r\n300000\r')" "--timeout raises it: the result"
expect_eq "$(evaluations)" 1 "the query within its limit is recorded"
for bad in 0 -1 1e19 x; do
    run env BENCHDB_TIMEOUT="$bad" "$B" sql "SELECT 1"
    expect_rc 2 "\$BENCHDB_TIMEOUT=$bad"
    expect_eq "$(cat "$T/err")" \
        "error: sql: \$BENCHDB_TIMEOUT '$bad': expected a number of seconds > 0, at most 604800 (a week) (see 'benchdb sql --help')" \
        "\$BENCHDB_TIMEOUT=$bad: message"
done
# 4. One call of a statistics function that outlasts the deadline: the
# progress handler runs between the steps of a statement, and
# change_points' final call over 200,000 values with a window holding them
# all (O(n^2) a split) ran for minutes past --timeout 2. It now asks the
# deadline as it computes (stats/stop.h), and the message is the timeout's.
cp="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
SELECT length(change_points(x, (x % 7) + (x > 100000) * 5 + (x > 150000) * 3, 1000000)) AS n FROM c"
run_bounded 60 "$B" sql --timeout 2 "$cp"
expect_bounded "sql: change_points past --timeout" 30 256
expect_rc 1 "sql: change_points past --timeout: stopped"
expect_eq "$(cat "$T/err")" "error: sql: stopped after 2 s (--timeout 2; raise it with --timeout SECONDS)" \
    "sql: change_points past --timeout: the timeout's message"
printf -- '-- name: cpslow\n-- summary: one slow call\n%s\n' "$cp" >q/cpslow.sql
run_bounded 60 "$B" query --record --queries q cpslow --timeout 2
expect_bounded "query: change_points past --timeout" 30 256
expect_eq "$(cat "$T/err")" "error: query cpslow: stopped after 2 s (--timeout 2; raise it with --timeout SECONDS)" \
    "query: change_points past --timeout: the timeout's message"
expect_eq "$(evaluations)" 1 "the stopped query records nothing"
# Within the limit the same function gives its result (a small window).
run bd sql --timeout 60 --format csv "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000)
SELECT change_points(x, (x % 7) + (x > 1000) * 5, 100) AS cp FROM c"
expect_rc 0 "change_points within the limit"
expect_out_has '""seq"":1002,""index"":1001,' "change_points within the limit: the step found"
# The default itself, as the help gives it (the unit test cli_limits
# checks that no --timeout and no $BENCHDB_TIMEOUT make 60 s).
run bd sql --help
expect_out_has "stop after SECONDS (default 60, or \$BENCHDB_TIMEOUT;" "sql --help names the default"
finish
