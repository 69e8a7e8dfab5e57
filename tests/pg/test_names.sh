# A store's name never shows a password (docs/reliability.md;
# docs/postgresql.md, "A store on a server"): in every form libpq takes a
# password (before the host, with an unescaped @ or / in it; as a
# password parameter, its key percent-encoded too; in a keyword=value
# string, quoted or not) errors and init's lines show the store's name
# with *** for the password and never a piece of it, also where libpq's
# own message quotes what it misread. The URI's scheme is read in any case
# (POSTGRESQL://) and a keyword=value string is a server store: each
# connects, and a bad one is named masked, never taken for a file name.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_names
pg_emptydb "$db" >/dev/null
nowhere="127.0.0.1:1" # nothing listens there

# refused WHAT NAME SHOWN SECRET...: a command on NAME fails (exit 1),
# its error names the store as SHOWN, and holds no SECRET.
refused() {
    what=$1 name=$2 shown=$3
    shift 3
    run bd --db "$name" sql "SELECT 1"
    expect_rc 1 "$what"
    expect_err_has "error: $shown: " "$what: the store named, its password masked"
    for s in "$@"; do
        checks=$((checks + 1))
        grep -qF -- "$s" "$T/err" && fail "$what: the error shows '$s': $(cat "$T/err")"
    done
    run env BENCHDB="$name" "$BENCHDB_BIN" list
    expect_rc 1 "$what, as \$BENCHDB"
    for s in "$@"; do
        checks=$((checks + 1))
        grep -qF -- "$s" "$T/err" && fail "$what, as \$BENCHDB: the error shows '$s'"
    done
}

refused "a password before the host" "postgresql://u:s3cretpw@$nowhere/db" "postgresql://u:***@$nowhere/db" s3cretpw
refused "an unescaped @ in the password" "postgresql://u:s3cr@t-pa55@$nowhere/db" "postgresql://u:***@$nowhere/db" \
    s3cr t-pa55 "@t-pa"
refused "an unescaped / in the password" "postgresql://u:ab/cd99@$nowhere/db" "postgresql://u:***@$nowhere/db" \
    "ab/" cd99 '"ab"'
refused "a password parameter" "postgresql://u@$nowhere/db?password=s3cretpw&sslmode=disable" \
    "postgresql://u@$nowhere/db?password=***&sslmode=disable" s3cretpw
refused "a password parameter, its key percent-encoded" "postgresql://u@$nowhere/db?pass%77ord=s3cretpw" \
    "postgresql://u@$nowhere/db?pass%77ord=***" s3cretpw
refused "a password parameter libpq cannot read" "postgresql://u@$nowhere/db?password=s3cretpw&bogus=1" \
    "postgresql://u@$nowhere/db?password=***&bogus=1" s3cretpw
refused "the scheme in capitals" "POSTGRESQL://u:s3cretpw@$nowhere/db" "POSTGRESQL://u:***@$nowhere/db" s3cretpw
refused "postgres:// in mixed case" "Postgres://u:s3cretpw@$nowhere/db" "Postgres://u:***@$nowhere/db" s3cretpw
refused "keyword=value" "host=127.0.0.1 port=1 user=u password=s3cretpw dbname=db" \
    "host=127.0.0.1 port=1 user=u password=*** dbname=db" s3cretpw
refused "keyword=value, the password quoted" "host=127.0.0.1 port=1 password='s3cret pw\\'x' dbname=db" \
    "host=127.0.0.1 port=1 password=*** dbname=db" s3cret "pw\\'x"
refused "keyword=value, a quote left open" "host=127.0.0.1 password='s3cret pw" "host=127.0.0.1 password=***" \
    s3cret
refused "keyword=value, spaces around =" "host = 127.0.0.1 port = 1 password = s3cretpw" \
    "host = 127.0.0.1 port = 1 password = ***" s3cretpw

# A server's name mistyped (the scheme's ':' or a slash short, a scheme
# misspelled, a keyword misspelled) is no file's name either: refused,
# saying why, its password masked as in the name it was meant as (before,
# SQLite took it for a file and "no store here" printed it whole).
refused "a slash short" "postgresql:/u:s3cretpw@$nowhere/db" "postgresql:/u:***@$nowhere/db" s3cretpw
refused "the scheme's colon left out" "postgresql//u:s3cretpw@$nowhere/db" "postgresql//u:***@$nowhere/db" s3cretpw
refused "the scheme misspelled" "postgresq://u:s3cretpw@$nowhere/db" "postgresq://u:***@$nowhere/db" s3cretpw
refused "keyword=value, a keyword misspelled" "hots=127.0.0.1 port=1 password=s3cretpw dbname=db" \
    "hots=127.0.0.1 port=1 password=*** dbname=db" s3cretpw
expect_err_has "'hots' is not one of libpq's connection keywords (did you mean 'host'?)" "says which word, and the nearest"
run bd --db "postgresql:/u:s3cretpw@$nowhere/db" sql "SELECT 1"
expect_err_has "not a PostgreSQL connection URI, which begins postgresql:// or postgres://" "says why"
bd --db src.db init >/dev/null || fail "an SQLite store to copy"
run bd --db src.db copy "postgresql:/u:s3cretpw@$nowhere/db"
expect_rc 1 "copy into a mistyped name"
expect_err_has "error: copy: postgresql:/u:***@$nowhere/db: not a PostgreSQL connection URI" "copy names it masked"
checks=$((checks + 1))
grep -qF s3cretpw "$T/err" && fail "copy shows the password: $(cat "$T/err")"
checks=$((checks + 1))
[ -e postgresql: ] && fail "copy made a directory of the name"

# Each form reaches the store (trust authentication: the password is not
# asked for), and init names it masked.
for name in "POSTGRESQL://$PGUSER:s3cretpw@$PGHOST:$PGPORT/$db" \
    "host=$PGHOST port=$PGPORT user=$PGUSER password=s3cretpw dbname=$db" \
    "postgresql://$PGUSER@$PGHOST:$PGPORT/$db?password=s3cretpw"; do
    run bd --db "$name" init
    expect_rc 0 "init on $name"
    checks=$((checks + 1))
    grep -qF s3cretpw "$T/out" "$T/err" && fail "init shows the password: $(cat "$T/out" "$T/err")"
    run bd --db "$name" sql "SELECT count(*) AS n FROM plan" -f csv
    expect_rc 0 "sql on $name"
done
run bd --db "host=$PGHOST port=$PGPORT user=$PGUSER password=s3cretpw dbname=$db" init
expect_out_has "store host=$PGHOST port=$PGPORT user=$PGUSER password=*** dbname=$db is up to date" \
    "init names a keyword=value store, masked"

# A file whose name merely holds a keyword is a file.
run bd --db "./password=x.db" sql "SELECT 1"
expect_rc 1 "a file named ./password=x.db"
expect_err_has "./password=x.db" "is a file, named as given"
# So are a directory named postgresql and a name holding one =.
for f in postgresql/x.db x=1.db ./postgresql:/x.db; do
    run bd --db "$f" sql "SELECT 1"
    expect_err_has "error: $f: no store here" "$f is a file"
done

pg_dropdb "$db" >/dev/null
finish
