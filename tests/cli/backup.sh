# benchdb backup (SQLite's online backup): copies taken while other
# processes ingest archive after archive are each one consistent snapshot:
# `check` finds every copy whole (integrity, every archive re-hashed,
# series against their values, the derived tables against what they
# summarise), holding some of the archives, each whole, between what the
# store held before and after. An existing FILE is refused and left as it
# is; a store on PostgreSQL is pointed to its tools (pg/copy covers copy).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd --db a.db init >/dev/null
bd simulate -q --plan busy --hosts 4 --positions 6 sim >/dev/null 2>&1 || bd simulate -q --plan busy sim >/dev/null ||
    fail "simulate"
bd --db a.db ingest -q "$BENCHDB_SRC"/examples/calibration/p3-vm-a-1.jsonl.zst || fail "ingest"
before=$(bd --db a.db sql "SELECT count(*) FROM archive" --format csv | tail -1 | tr -d '\r')
# One ingest process per archive, in the background, while the copies run.
(for f in sim/*.jsonl.zst; do "$BENCHDB_BIN" --db a.db ingest -q "$f" || echo "ingest $f failed"; done) >ingests.log 2>&1 &
pid=$!
i=0
while [ $i -lt 4 ]; do
    i=$((i + 1))
    run bd --db a.db backup "copy$i.db"
    expect_rc 0 "backup $i while ingests run"
    expect_out_has "backed up a.db to copy$i.db" "says so"
done
wait $pid
checks=$((checks + 1))
[ ! -s ingests.log ] || fail "the ingests ran: $(cat ingests.log)"
after=$(bd --db a.db sql "SELECT count(*) FROM archive" --format csv | tail -1 | tr -d '\r')
copies=
for k in 1 2 3 4; do
    run bd --db "copy$k.db" check
    expect_rc 0 "check on copy $k"
    n=$(bd --db "copy$k.db" sql "SELECT count(*) FROM archive" --format csv | tail -1 | tr -d '\r')
    checks=$((checks + 1))
    [ "$n" -ge "$before" ] && [ "$n" -le "$after" ] || fail "copy $k holds $n archives (store: $before, then $after)"
    copies="$copies$n "
done
echo "archives: before $before, after $after; copies: $copies"
checks=$((checks + 1))
ls ./*.partial-* >/dev/null 2>&1 && fail "no partial file is left"

run bd --db a.db backup copy1.db
expect_rc 1 "an existing FILE"
expect_err_has "copy1.db: already exists (backup writes a new file)" "says so"
run bd --db a.db backup nodir/x.db
expect_rc 1 "a FILE that cannot be created"
expect_err_has "nodir/x.db" "names it"
expect_err_has "nodir/x.db: cannot create the copy (nodir/x.db.partial-XXXXXX, renamed to it once whole)" "says what could not be made"
expect_err_has "): No such file or directory" "and why: the system's reason, not SQLite's 'unable to open database file'"
checks=$((checks + 1))
[ ! -e nodir ] || fail "nothing made"
run bd --db "postgresql://nobody@127.0.0.1:1/none" backup x.db
expect_rc 1 "a server's store"
run bd backup --help
expect_rc 0 "backup --help"
expect_out_has "usage: benchdb [--db FILE] backup FILE" "the synopsis"
# A link planted where the temporary would go: its name was predictable
# (FILE.partial-PID, the pid of the shell that exec hands on) and SQLite
# followed the link, so another store was overwritten with this one's
# pages. Now the temporary is a new mkstemp name, opened without following
# links.
bd --db victim.db init >/dev/null
bd --db victim.db sql --write "INSERT INTO plan(name) VALUES ('victim')" || fail "victim"
sh -c 'ln -s victim.db planted.db.partial-$$; exec "$0" --db a.db backup planted.db' "$BENCHDB_BIN" >/dev/null ||
    fail "backup beside a planted link"
expect_eq "$(bd --db victim.db sql "SELECT group_concat(name) FROM plan" --format csv | tail -1 | tr -d '\r')" victim \
    "the victim store is untouched"
checks=$((checks + 1))
[ -f planted.db ] && [ ! -L planted.db ] || fail "the copy is a file of its own"
run bd --db planted.db check
expect_rc 0 "the copy is whole"
# A link to nothing at FILE: refused, nothing made where it points.
ln -s nowhere.db dangling.db
run bd --db a.db backup dangling.db
expect_rc 1 "a link to nothing"
expect_err_has "dangling.db: already exists (backup writes a new file)" "says so"
checks=$((checks + 1))
[ ! -e nowhere.db ] || fail "nothing made where it points"
finish
