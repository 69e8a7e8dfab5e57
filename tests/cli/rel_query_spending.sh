# What a query spends on the way (docs/reliability.md, promise 9 and Review
# 8, items 6 and 7): 'sql' and every saved query stopped at 60 s, 1 000 000
# rows or 256 MiB of result, but an ORDER BY of 3,000 rows of 1 MB wrote
# 3 GB of SQLite's sorter files in 15 s (some 12 GB before the time limit,
# enough to fill a shared disk), and a median over an endless recursive
# CTE held 429 MB after 10 s (2.6 GB by 60 s). Now the temporary files a
# query writes are bounded (--max-temp-bytes, default 1 GiB) and so is the
# memory SQLite holds for it (--max-memory, default 1 GiB): each of the two
# is stopped here by a small limit, quickly and within bounded memory,
# with a message naming the limit and how to raise it, exit 1, nothing
# recorded; a query within the limits runs as before.
. "$BENCHDB_SRC/tests/cli/lib/rel_query.sh"
c="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
# count N: the integers 1 to N.
count() { echo "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $1)"; }
# The review's two queries (the sort's keys end in x so that no two are
# equal and the sort must keep them all).
sorted="$(count 3000) SELECT x FROM c ORDER BY zeroblob(1000000) || x"
median="$c SELECT median(x) AS m FROM c"
mkdir q
printf -- '-- name: sorted\n-- summary: 3000 megabytes sorted\n%s\n' "$sorted" >q/sorted.sql
printf -- '-- name: med\n-- summary: the median of endless rows\n%s\n' "$median" >q/med.sql

# stopped WHAT MESSAGE CMD...: CMD stops within 60 s and 256 MiB of memory
# (the review's ran 60 s and to 2.6 GB), exit 1, with MESSAGE and no
# partial result.
stopped() {
    what=$1 message=$2
    shift 2
    run_bounded 120 "$@"
    expect_bounded "$what" 60 256
    expect_rc 1 "$what"
    expect_eq "$(cat "$T/err")" "$message" "$what: message"
    expect_eq "$(cat "$T/out")" "" "$what: no partial result"
}

# 1. The sort's temporary files, at 32 MiB.
disk="the query wrote more than 32 MiB of temporary files (--max-temp-bytes 32M; raise it with --max-temp-bytes SIZE)"
stopped "sql: the sort" "error: sql: $disk" "$B" sql --max-temp-bytes 32M "$sorted"
stopped "query: the sort" "error: query sorted: $disk" "$B" query --record --queries q sorted --max-temp-bytes 32M
# The same sort of a smaller result within the limit: all of it, in order.
run bd sql --max-temp-bytes 32M --format csv "$(count 200) SELECT x FROM c ORDER BY zeroblob(100000) || (1000 - x)"
expect_rc 0 "sql: a sort within --max-temp-bytes"
expect_eq "$(sed -n '2p;$p' "$T/out" | tr -d '\r' | tr '\n' ' ')" "200 1 " "sql: a sort within the limit: its rows"
expect_eq "$(cat "$T/err")" "" "sql: a limit that applies (SQLite): no warning"

# 2. The median's memory, at 64 MiB.
memory="the query needed more than 64 MiB of memory (--max-memory 64M; raise it with --max-memory SIZE)"
stopped "sql: the median" "error: sql: $memory" "$B" sql --max-memory 64M "$median"
stopped "query: the median" "error: query med: $memory" "$B" query --record --queries q med --max-memory 64M
run bd sql --max-memory 64M --format csv "$(count 100001) SELECT median(x) AS m FROM c"
expect_rc 0 "sql: a median within --max-memory"
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" "50001.0" "sql: a median within the limit"

# 3. The defaults, as the help gives them, and what is no size.
run bd sql --help
expect_out_has "disk (default 1G; SQLite only); exit 1" "sql --help: --max-temp-bytes' default"
expect_out_has "(default 1G, or" "sql --help: --max-memory's default"
for bad in "--max-temp-bytes 0" "--max-temp-bytes 1Q" "--max-memory 0" "--max-memory -5"; do
    # shellcheck disable=SC2086
    run bd sql $bad "SELECT 1"
    expect_rc 2 "sql $bad"
done
# Ingest, copy, check and migrate take neither: their work is not a
# person's query, and nothing else sets the limits.
for cmd in ingest copy check migrate; do
    run bd "$cmd" --help
    expect_rc 0 "$cmd --help"
    ! grep -q -e --max-memory -e --max-temp-bytes "$T/out" || fail "$cmd takes a query's limits"
done

# 4. A tutorial query under the defaults: the same rows as with the
# largest limits.
bd simulate --quiet --history 60 --cells 2 --steps 3 --seed 3 --plan nightly nightly/
bd ingest --quiet nightly/
run bd query regressions --param plan=nightly --no-record --format csv
expect_rc 0 "a tutorial query under the default limits"
cp "$T/out" default.csv
[ "$(wc -l <default.csv)" -gt 1 ] || fail "the tutorial query has rows"
run bd query regressions --param plan=nightly --no-record --format csv --max-temp-bytes 1T --max-memory 1T
expect_eq "$(cat "$T/out")" "$(cat default.csv)" "the tutorial query: the same rows within the largest limits"

# 5. Nothing stopped was recorded.
expect_eq "$(bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')" 0 "nothing recorded"
finish
