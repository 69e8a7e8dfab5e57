# -0.0 is stored as 0.0 on both engines (docs/reliability.md;
# docs/archive-format.md, "How an archive is stored"): SQLite reads a
# -0.0 back as 0.0, so ingest stores every zero sample as +0.0, and
# PostgreSQL holds the same bits: for a benchdb-run/1 stream (values and
# warmups written -0.0, -0 and -0e0; PostgreSQL's COPY path) and for
# go-bench files, a new run (COPY) and one appended to a stored run (one
# INSERT per series, values bound as parameters).
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_negzero
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db" >/dev/null

ex="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
{
    sed -n 1p "$ex"
    echo '{"record":"samples","benchmark":"zero","block":1,"variant":"native","unit":"ns/op","metric":"delta","warmup":[-0.0],"values":[-0.0,-0,-0e0,1.5]}'
} >"$T/zero.jsonl"
printf 'BenchmarkZero-8 100 42 ns/op -0 delta/op\n' >"$T/zero.txt"
printf 'BenchmarkMore-8 100 43 ns/op -0.0 delta/op\n' >"$T/more.txt"
for s in "$T/s.db" "$uri"; do
    run bd --db "$s" init
    expect_rc 0 "init $s"
    run bd --db "$s" ingest -q "$T/zero.jsonl"
    expect_rc 0 "a stream with -0.0 into $s"
    run bd --db "$s" ingest -q --plan p --run r --host h "$T/zero.txt"
    expect_rc 0 "a go-bench file with -0 into $s"
    run bd --db "$s" ingest -q --append --plan p --run r --host h "$T/more.txt"
    expect_rc 0 "a go-bench file with -0.0 appended in $s"
done

# The zeros: how many, and how many of them negative, on each engine.
lite=$(bd --db "$T/s.db" sql "SELECT count(*) AS n, count(*) FILTER (WHERE printf('%e', value) LIKE '-%') AS neg \
FROM sample WHERE value = 0" -f csv | tr -d '\r' | tail -n 1)
expect_eq "$lite" "6,0" "SQLite: six zero samples, none negative"
pgz=$(pg -d "$db" -A -t -F, -c "SELECT count(*), count(*) FILTER (WHERE CAST(value AS TEXT) LIKE '-%') FROM sample \
WHERE value = 0")
expect_eq "$pgz" "6,0" "PostgreSQL: six zero samples, none negative"
expect_eq "$(pg -d "$db" -A -t -c "SELECT DISTINCT encode(float8send(value), 'hex') FROM sample WHERE value = 0")" \
    "0000000000000000" "PostgreSQL: the bits of +0.0"
# The series totals are the same too.
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM series WHERE total = 0 AND CAST(total AS TEXT) LIKE '-%'")" 0 \
    "no total of -0"

pg_dropdb "$db" >/dev/null
finish
