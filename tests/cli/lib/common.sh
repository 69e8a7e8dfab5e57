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

finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures of $checks checks failed" >&2
        exit 1
    fi
    echo "$checks checks passed"
    exit 0
}
