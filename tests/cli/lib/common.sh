# Shared helpers for the command-line tests (sourced, not a test itself).
# Each test runs in a fresh temporary directory, removed at exit.
set -u
: "${BENCHDB_BIN:?BENCHDB_BIN must name the benchdb binary}"
: "${BENCHDB_SRC:?BENCHDB_SRC must name the source directory}"
T=$(mktemp -d "${TMPDIR:-/tmp}/benchdb-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
unset BENCHDB
failures=0
checks=0

bd() { "$BENCHDB_BIN" "$@"; }

# calibration_archives: the example calibration plan's archives, a glob
# for the shell to expand: all 12, or under the sanitizers
# (BENCHDB_SANITIZED=1) host a's 4 (both profiles, both positions), for
# tests whose commands take the same paths over a third of the rows; the
# other 8 are more of the same rows, which cli/tutorial and
# cli/compare_cli ingest sanitized on all 12 (docs/testing.md, "The
# larger cli and pg tests trimmed under the sanitizers":
# tools/plain_only_cover.py's counts). The plain pass uses all 12.
calibration_archives() {
    if [ "${BENCHDB_SANITIZED:-0}" = 1 ]; then
        echo "$BENCHDB_SRC/examples/calibration/p?-vm-a-?.jsonl.zst"
    else
        echo "$BENCHDB_SRC/examples/calibration/*.jsonl.zst"
    fi
}

# run CMD...: runs it, keeping stdout in $T/out, stderr in $T/err, status in $rc.
run() {
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
}

fail() {
    failures=$((failures + 1))
    printf 'FAIL: %s\n' "$*" >&2
}

# expect_rc N WHAT: the last run exited with N.
expect_rc() {
    checks=$((checks + 1))
    if [ "$rc" != "$1" ]; then
        fail "$2: exit status $rc, expected $1"
        sed 's/^/  stderr: /' "$T/err" >&2
    fi
}

# expect_out TEXT WHAT: the last run's stdout is exactly TEXT (plus a final newline).
expect_out() {
    checks=$((checks + 1))
    printf '%s\n' "$1" >"$T/want"
    if ! cmp -s "$T/out" "$T/want"; then
        fail "$2: stdout differs"
        diff "$T/want" "$T/out" | sed 's/^/  /' >&2
    fi
}

# expect_err_has TEXT WHAT: the last run's stderr contains TEXT.
expect_err_has() {
    checks=$((checks + 1))
    if ! grep -qF -- "$1" "$T/err"; then
        fail "$2: stderr lacks '$1'"
        sed 's/^/  stderr: /' "$T/err" >&2
    fi
}

# expect_out_has TEXT WHAT: the last run's stdout contains TEXT.
expect_out_has() {
    checks=$((checks + 1))
    if ! grep -qF -- "$1" "$T/out"; then
        fail "$2: stdout lacks '$1'"
        sed 's/^/  stdout: /' "$T/out" >&2
    fi
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
    checks=$((checks + 1))
    [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# evaluations [DB]: how many evaluations DB (default results.db) has
# recorded. A benchdb process reads the count only when the file has
# changed since the last read: DB byte for byte the file last counted
# (kept in $T/evaluations.db, with its name and count), with no
# write-ahead log beside it, holds the same rows. A command that must
# record nothing leaves the file as it was, so a check of "nothing
# recorded" costs a cmp, not two benchdb processes (a sanitized one is
# about 47 ms of CPU).
evaluations() {
    ev_db=${1:-results.db}
    if [ -f "$T/evaluations.n" ] && [ ! -s "$ev_db-wal" ] && cmp -s "$ev_db" "$T/evaluations.db"; then
        read -r ev_name ev_n <"$T/evaluations.n"
        if [ "$ev_name" = "$ev_db" ]; then
            echo "$ev_n"
            return
        fi
    fi
    rm -f "$T/evaluations.n"
    ev_n=$(bd --db "$ev_db" sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')
    if [ ! -s "$ev_db-wal" ]; then
        cp "$ev_db" "$T/evaluations.db"
        printf '%s %s\n' "$ev_db" "$ev_n" >"$T/evaluations.n"
    fi
    echo "$ev_n"
}

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures of $checks checks failed" >&2
        exit 1
    fi
    echo "$checks checks passed"
    exit 0
}
