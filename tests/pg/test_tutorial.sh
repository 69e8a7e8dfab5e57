# docs/tutorial.md on a PostgreSQL store: every ```sh block runs, in
# order, with $BENCHDB naming a database on the test cluster instead of
# results.db, and gives the same standard output and standard error as the
# same commands on an SQLite store, line for line. What may differ is only
# what names the store or the moment: the store's name, init's line about
# the reader role, the seconds an ingest took, the times an evaluation or a
# registration was made (and the HTML pages' copies of them, as recorded
# or as a page shows a time: 2026-12-01 17:16:25); and check's
# lines for what only one engine has (SQLite's integrity_check; the
# extension's version and the foreign keys' state on PostgreSQL). Step 12's
# block about the SQLite file (```sh sqlite: a copy of results.db) runs
# with the copy made the PostgreSQL way (CREATE DATABASE ... TEMPLATE) and
# --db naming the copy; step 8's sqlite3 shell (```sh ext) is SQLite's
# own and runs in neither; step 12's ```sh engine block runs on both and
# its output, each engine's own, is left out of the comparison. The
# figures the tutorial states are checked on
# SQLite by cli/tutorial; here every one must come out the same. The
# SQLite side is cli/tutorial's own run, recorded in
# $BENCHDB_BUILD/tutorial-sqlite (ctest runs cli/tutorial first: fixture
# tutorial-sqlite), its ```sh ext blocks' output left out by their markers.
# In the plain pass only: what it adds is the two engines' output side by
# side, which the sanitizers do not change; the sanitized benchdb runs the
# same PostgreSQL paths in pg/commands (every command, shipped query and
# history on both engines), pg/ingest, pg/copy (the tutorial's store, both
# ways, re-verified), pg/report and pg/reader.
# ctest: slow plain-only cost=45
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_tutorial
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

# A ```sh engine block runs on both, its output framed as cli/tutorial
# frames it and left out of the comparison (each engine's own wording).
awk '
    /^```sh( sqlite| plain)?$/ { inblock = 1; next }
    /^```sh engine$/ { inblock = 1; eng = 1; print "echo \"@@ engine\"; echo \"@@ engine\" >&2"; next }
    /^```sh ext$/ { skip = 1; next }
    /^```/ {
        if (eng) print "echo \"@@ end engine\"; echo \"@@ end engine\" >&2"
        if (inblock) print ""; inblock = 0; skip = 0; eng = 0; next
    }
    inblock { print }
' "$BENCHDB_SRC/docs/tutorial.md" >commands.sh
[ "$(grep -c 'benchdb' commands.sh)" -ge 20 ] || fail "the tutorial has its commands"
grep -q '^cp results.db altered.db$' commands.sh || fail "step 12 copies the store as this test expects"

# On PostgreSQL the copy is a database made from the store's.
sed -e 's|^cp results.db altered.db$|copy_store|' -e 's|--db altered.db|--db "$ALTERED"|g' commands.sh >commands-pg.sh

rec="$BENCHDB_BUILD/tutorial-sqlite"
[ -f "$rec/out" ] && [ -f "$rec/err" ] || { fail "no recorded SQLite run in $rec (cli/tutorial records it)"; exit 1; }
mkdir sqlite pg pg/bin
for s in out err; do
    sed -e '/^@@ ext$/,/^@@ end ext$/d' -e '/^@@ engine$/,/^@@ end engine$/d' "$rec/$s" >"sqlite/$s"
done
cp "$rec"/*.html sqlite/
ln -s "$BENCHDB_BIN" pg/bin/benchdb
ln -s "$BENCHDB_SRC/examples" pg/examples
ln -s "$BENCHDB_BUILD" pg/build

pg_dropdb "${db}_altered" >/dev/null && pg_emptydb "$db"
rc=$?
expect_rc 0 "an empty database for the store"
[ "$failures" -eq 0 ] || exit 1
cat >pg/prelude.sh <<EOF
copy_store() {
    "$BENCHDB_PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE ${db}_altered TEMPLATE $db"
}
ALTERED="postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_altered"
EOF
cat pg/prelude.sh commands-pg.sh >pg/commands.sh
(cd pg && BENCHDB="$uri" PATH="$T/pg/bin:$PATH" sh -e commands.sh >out 2>err)
rc=$?
expect_rc 0 "every tutorial command runs on PostgreSQL"

# What names the store or the moment, written alike on both.
normalise() {
    sed -E -e "s|postgresql://[^ ]*/${db}_altered|altered.db|g" -e "s|postgresql://[^ ]*/$db|results.db|g" \
        -e '/^read-only analysis: log in as a member of benchdb_reader/d' \
        -e '/^check: (integrity_check|extension benchstats|foreign keys): /d' \
        -e 's/; [0-9]+\.[0-9]+ s$/; T s/' \
        -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z/TIME/g' \
        -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}/TIME/g' \
        -e 's/[0-9]+(\.[0-9]+)? ms\b/T ms/g' "$1"
}
for s in out err; do
    normalise "sqlite/$s" >"sqlite.$s"
    sed '/^@@ engine$/,/^@@ end engine$/d' "pg/$s" >"pg/$s.cmp"
    normalise "pg/$s.cmp" >"pg.$s"
    if ! diff -u "sqlite.$s" "pg.$s" >"diff.$s"; then
        fail "std$s differs between SQLite and PostgreSQL ($(grep -c '^[-+][^-+]' "diff.$s") lines):"
        head -n 40 "diff.$s" >&2
    fi
done
[ "$(wc -l <pg.out)" -ge 500 ] || fail "the tutorial printed its results on PostgreSQL"
grep -q "verified 41 evaluations: 41 identical, 0 not" pg/err || fail "step 13: every evaluation re-verifies on PostgreSQL"
# Step 12 on PostgreSQL: the same suggestion in the server's words.
grep -q "error: sql: column \"nam\" does not exist.*; did you mean 'name'?" pg/err || fail "step 12: the nearest column on PostgreSQL"
grep -q "^CREATE TABLE plan (" pg/out || fail "step 12: .schema plan on PostgreSQL"

# The pages the tutorial writes: the same HTML but for the moments.
for page in sqlite/*.html; do
    name=$(basename "$page")
    [ -f "pg/$name" ] || { fail "$name was not written on PostgreSQL"; continue; }
    normalise "$page" >"sqlite.$name"
    normalise "pg/$name" >"pg.$name"
    cmp -s "sqlite.$name" "pg.$name" || fail "$name differs between SQLite and PostgreSQL"
done
[ "$(ls sqlite/*.html | wc -l)" -eq 11 ] || fail "the tutorial wrote its 11 pages"

pg_dropdb "$db" >/dev/null
pg_dropdb "${db}_altered" >/dev/null
finish
