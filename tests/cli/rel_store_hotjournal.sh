# A hot journal (docs/reliability.md): a SIGKILL during 'benchdb init'
# of a new file can leave the file with a hot rollback journal (2 kills in
# 200 did: a 4 KB file and FILE-journal). init, check and sql opened it
# read-only first and failed with "attempt to write a readonly database";
# only migrate repaired it. Now every command rolls the journal back (a
# brief read-write open) and goes on: init makes the store, a reading
# command says the file is empty and to run 'benchdb init'. Where the
# journal cannot be rolled back (a read-only file system) the message says
# so and what to run, and nothing is changed. The state is made at test
# time by lib/hot_journal.py (a writer ended as abruptly as a kill after
# spilling pages to a new file), then 40 real kills of 'benchdb init' at
# moments spread over its run must each leave a store that 'init' repairs
# (10 under the sanitizers: a killed process runs none of their checks,
# and each kill's check and init run the same code on what it left;
# docs/testing.md).
# ctest: slow
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
hot() { # FILE: a new file with a hot journal
    rm -f "$1" "$1-journal" "$1-wal" "$1-shm"
    python3 "$BENCHDB_SRC/tests/cli/lib/hot_journal.py" "$1" || fail "test setup: hot_journal.py $1"
    [ -s "$1-journal" ] || fail "test setup: no journal beside $1"
}
empty_msg() { echo "error: $1: no store here: the file is empty (run 'benchdb init' to create a store in it)"; }

# Each reading command rolls the journal back, then finds an empty file.
for cmd in check "sql SELECT(1)" history "query placement-rule --param plan=p --no-record" "migrate --status --format csv"; do
    hot h.db
    # shellcheck disable=SC2086
    run bd --db h.db $cmd
    case "$cmd" in
    "migrate --status --format csv") # inspecting: an empty file is version 0, every migration pending
        expect_rc 0 "$cmd on a hot journal"
        expect_out_has "0001,0001_initial.sql,pending," "$cmd lists the first migration";;
    *)
        expect_rc 1 "$cmd on a hot journal"
        expect_eq "$(cat "$T/err")" "$(empty_msg h.db)" "$cmd on a hot journal: message";;
    esac
    [ ! -e h.db-journal ] || fail "$cmd left the journal"
    expect_eq "$(wc -c <h.db | tr -d ' ')" 0 "$cmd: the journal rolled back to the empty file"
done

# init makes the store; every command then works.
hot h.db
run bd --db h.db init
expect_rc 0 "init on a hot journal"
expect_out "created store h.db (schema version $(ls "$BENCHDB_SRC"/migrations/*.sql | wc -l))" "init on a hot journal: output"
run bd --db h.db check
expect_rc 0 "check after init"
run bd --db h.db ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
expect_rc 0 "ingest after init"

# Where the journal cannot be rolled back: the message says why and what to
# run, and the files stay as they were (root: a tmpfs remounted read-only).
. "$BENCHDB_SRC/tests/cli/lib/tmpfs.sh"
if mount_tmpfs m 4M; then
    hot m/h.db
    before=$(cat m/h.db m/h.db-journal | sha256sum)
    mount -o remount,ro m || fail "test setup: remount read-only"
    for cmd in check init "sql SELECT(1)"; do
        # shellcheck disable=SC2086
        run bd --db m/h.db $cmd
        expect_rc 1 "$cmd on a hot journal, read-only"
        expect_eq "$(cat "$T/err")" "error: m/h.db: a process stopped while writing left an unfinished transaction (m/h.db-journal), which must be rolled back before the store can be read, and that cannot be done here (the file system is mounted read-only): make the file and its directory writable, then run 'benchdb check'" "$cmd on a hot journal, read-only: message"
    done
    expect_eq "$(cat m/h.db m/h.db-journal | sha256sum)" "$before" "nothing changed on the read-only file system"
    mount -o remount,rw m || fail "test setup: remount read-write"
    run bd --db m/h.db check
    expect_eq "$(cat "$T/err")" "$(empty_msg m/h.db)" "check once writable: rolled back"
else
    echo "note: the read-only case was not run: $tmpfs_why"
fi

# Real kills of init on a new file, at moments spread over its duration.
rm -f k.db*
start=$(date +%s%N)
bd --db k.db init >/dev/null
init_ns=$(($(date +%s%N) - start))
kills=40
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && kills=10
k=0
while [ "$k" -lt "$kills" ]; do
    rm -f k.db k.db-journal k.db-wal k.db-shm
    delay_us=$((init_ns / 1000 * (2 * k + 1) / (2 * kills)))
    "$BENCHDB_BIN" --db k.db init >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # Whatever the kill left: check either passes or says what to run.
    run bd --db k.db check
    if [ "$rc" != 0 ]; then
        case "$(cat "$T/err")" in
        "$(empty_msg k.db)" | "error: k.db: no store here (run 'benchdb init' to create one, or pass --db FILE)" | \
            "error: k.db: the store's schema is at version "*" and needs migrations up to "*": run 'benchdb migrate'") ;;
        *) fail "kill $k: check says: $(cat "$T/err")" ;;
        esac
    fi
    run bd --db k.db init
    expect_rc 0 "kill $k: init repairs the store"
    run bd --db k.db check
    expect_rc 0 "kill $k: check after init"
    k=$((k + 1))
done
finish
