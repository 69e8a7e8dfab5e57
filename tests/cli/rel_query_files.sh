# Untrusted query directories (docs/reliability.md): one
# .sql file without a '-- name:' line made every query fail, built-ins
# included; a *.sql link to /dev/zero was read until memory ran out; a FIFO
# hung. The same for 'sql --file'. Now a file on the query path is read
# only when it is a regular file (a link to one is fine) of at most 1 MiB
# without a NUL byte; one that cannot be used is skipped with a warning
# naming it and why, and the other queries still work; named explicitly,
# or shadowing the query asked for, it is an error. 'sql --file' reads a
# regular file (or standard input) of at most 16 MiB.
. "$BENCHDB_SRC/tests/cli/lib/rel_query.sh"
sum=$(sha256sum <s.db)

# The hostile directory, beside two good queries (one through a link).
mkdir q elsewhere q/dir.sql
printf -- '-- name: good\n-- summary: counts values\nSELECT count(*) AS n FROM sample\n' >q/good.sql
printf -- '-- name: linked\n-- summary: counts runs\nSELECT count(*) AS runs FROM run\n' >elsewhere/linked.sql
ln -s ../elsewhere/linked.sql q/linked.sql
printf -- '-- summary: no name\nSELECT 1\n' >q/noname.sql
ln -s /dev/zero q/zero.sql
mkfifo q/fifo.sql
# A good header, then comments to one byte past 1 MiB.
python3 - q/big.sql <<'PY'
import sys
head = b"-- name: big\n-- summary: too big\nSELECT 1 AS one\n"
pad = b"-- " + b"x" * 1020 + b"\n"
body = head + pad * ((1048577 - len(head)) // len(pad) + 1)
open(sys.argv[1], "wb").write(body[:1048577])
PY
printf -- '-- name: nul\n-- summary: a NUL\nSELECT 1\0 AS one\n' >q/nul.sql
printf '%s\n' \
    "warning: q/big.sql: is larger than 1 MiB, the most a saved query file may hold; skipped (the other saved queries still work)" \
    "warning: q/dir.sql: is a directory, not a regular file; skipped (the other saved queries still work)" \
    "warning: q/fifo.sql: is a FIFO (named pipe), not a regular file; skipped (the other saved queries still work)" \
    "warning: q/noname.sql: the header has no '-- name:' line; skipped (the other saved queries still work)" \
    "warning: q/nul.sql: holds a NUL byte (at byte 40): not a text file; skipped (the other saved queries still work)" \
    "warning: q/zero.sql: is a character device, not a regular file; skipped (the other saved queries still work)" \
    >warnings

# 1. The listing: every good query, the built-ins, a warning per bad file;
# quick and small (it used to hang on the FIFO, or read /dev/zero).
run_bounded 20 "$B" queries --queries q --format csv
expect_bounded "queries with a hostile directory" 10 64
expect_rc 0 "queries with a hostile directory"
expect_eq "$(cut -d, -f1 "$T/out" | tr -d '\r' | grep -c -x -e good -e linked -e placement-rule -e comparisons)" 4 \
    "the good queries and the built-ins are listed"
expect_eq "$(cat "$T/err")" "$(cat warnings)" "one warning per bad file, naming it and why"
run_bounded 20 "$B" queries --queries q --format json --envelope
expect_rc 0 "queries --envelope"
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["skipped"]), d["skipped"][5]["file"], len(d["notes"]))' "$T/out")" \
    "6 q/zero.sql 6" "the envelope lists the files skipped"
expect_eq "$(cat "$T/err")" "" "nothing on stderr with --envelope"

# 2. Running queries: the good ones, through a link too, and the built-ins,
# from --queries and from $BENCHDB_QUERIES alike.
run_bounded 20 "$B" query --queries q good --no-record --format csv
expect_rc 0 "a good query beside bad files"
expect_out "$(printf 'n\r\n22\r')" "its result"
expect_eq "$(head -n 6 "$T/err")" "$(cat warnings)" "the bad files are warned about"
run_bounded 20 env BENCHDB_QUERIES="$T/nothere:q" "$B" query linked --no-record --format csv
expect_rc 0 "a query through a link, from \$BENCHDB_QUERIES"
expect_out "$(printf 'runs\r\n2\r')" "its result"
expect_err_has "warning: $T/nothere: cannot read this query path entry: No such file or directory; skipped" \
    "a missing entry is warned about"
run_bounded 20 "$B" query --queries q aggregations --param plan=calibration-example --no-record --format csv
expect_rc 0 "a built-in query beside bad files"
expect_bounded "a built-in query beside bad files" 10 64
run_bounded 20 "$B" queries --queries q placement-rule
expect_rc 0 "a built-in query described beside bad files"

# 3. A bad file named explicitly is an error (exit 1), at once.
for f in "zero.sql: is a character device, not a regular file" \
    "fifo.sql: is a FIFO (named pipe), not a regular file" \
    "dir.sql: is a directory, not a regular file" \
    "big.sql: is larger than 1 MiB, the most a saved query file may hold" \
    "nul.sql: holds a NUL byte (at byte 40): not a text file" \
    "noname.sql: the header has no '-- name:' line"; do
    name=${f%%:*}
    run_bounded 20 "$B" query "q/$name" --no-record
    expect_bounded "query q/$name" 10 64
    expect_rc 1 "query q/$name"
    expect_eq "$(cat "$T/err")" "error: query: q/$f" "query q/$name: message"
    expect_eq "$(cat "$T/out")" "" "query q/$name: nothing on stdout"
    run_bounded 20 "$B" queries "q/$name"
    expect_rc 1 "queries q/$name"
done

# 4. A bad file named like the query asked for is not silently replaced
# by the built-in query of that name: an error naming it.
mkdir mine
printf -- '-- name: placement-rule\n-- summary: my version\n-- param: plan\n-- type: plan = integer\n-- param: x = 1\n-- param: x = 2\nSELECT 1\n' \
    >mine/placement-rule.sql
run_bounded 20 "$B" query --queries mine placement-rule --param plan=calibration-example
expect_rc 1 "a broken file shadowing a built-in"
expect_eq "$(cat "$T/err")" \
    "error: query: mine/placement-rule.sql:6: param: 'x' is declared twice (by its file name, the saved query placement-rule asked for: fix the file or remove it)" \
    "its message"
expect_eq "$(cat "$T/out")" "" "the built-in did not run"
run_bounded 20 "$B" queries --queries mine placement-rule
expect_rc 1 "queries NAME with a broken file shadowing it"
# A query of that name before the broken file wins, with a warning.
mkdir first
printf -- '-- name: placement-rule\n-- summary: mine\nSELECT 7 AS seven\n' >first/other.sql
run_bounded 20 "$B" query --queries first --queries mine placement-rule --no-record --format csv
expect_rc 0 "a good query of the name before the broken file"
expect_out "$(printf 'seven\r\n7\r')" "its result"
expect_err_has "warning: mine/placement-rule.sql:6: param: 'x' is declared twice; skipped" "the broken file's warning"

# 5. sql --file: the same checks, 16 MiB at most; standard input too.
printf 'SELECT count(*) AS n FROM sample\n' >elsewhere/count.sql
ln -s elsewhere/count.sql count-link.sql
run_bounded 20 "$B" sql --file count-link.sql --format csv
expect_rc 0 "sql --file through a link"
expect_out "$(printf 'n\r\n22\r')" "its result"
python3 -c 'import sys; open(sys.argv[1], "w").write("SELECT 1;" + " " * (16 << 20))' big-sql.sql
for f in "/dev/zero: is a character device, not a regular file" \
    "q/fifo.sql: is a FIFO (named pipe), not a regular file" \
    "q/dir.sql: is a directory, not a regular file" \
    "big-sql.sql: is larger than 16 MiB, the most an SQL file (--file) may hold"; do
    path=${f%%:*}
    run_bounded 20 "$B" sql --file "$path"
    expect_bounded "sql --file $path" 10 64
    expect_rc 1 "sql --file $path"
    expect_eq "$(cat "$T/err")" "error: $f" "sql --file $path: message"
done
run_bounded 20 "$B" sql --file - </dev/zero
expect_bounded "sql --file - from /dev/zero" 10 64
expect_rc 1 "sql --file - from /dev/zero"
expect_eq "$(cat "$T/err")" "error: standard input: holds a NUL byte (at byte 1): not a text file" "its message"
run_bounded 20 "$B" sql --file - <big-sql.sql
expect_bounded "sql --file - of more than 16 MiB" 10 96
expect_rc 1 "sql --file - of more than 16 MiB"
expect_eq "$(cat "$T/err")" "error: standard input: is larger than 16 MiB, the most an SQL file (--file) may hold" \
    "its message"
printf 'SELECT 2 AS two' | run_bounded 20 "$B" sql --file - --format csv
expect_out "$(printf 'two\r\n2\r')" "sql --file - from a pipe"

expect_eq "$(sha256sum <s.db)" "$sum" "the store is unchanged"
finish
