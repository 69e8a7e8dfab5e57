# npm_wait: wait for `make test`'s install of the tests' npm modules.
# make test runs `scripts/install-deps --npm` beside the plain build and,
# when it has not ended with the build, beside the plain tests (Makefile):
# $BENCHDB_BUILD/npm-deps.log.pid names the installing process, .rc is
# written with its exit status when it ends, and npm-deps.log holds what it
# said. A test that needs the modules calls npm_wait first: it returns at
# once when no install is running (no .pid, or its process gone: a test
# run by ctest alone, or an install already ended), waits for a running
# one (at most 15 minutes), and fails showing install-deps' output when the
# install failed. Sourced after common.sh.
npm_wait() {
    _npm_log="$BENCHDB_BUILD/npm-deps.log"
    [ -f "$_npm_log.pid" ] || return 0
    _npm_pid=$(cat "$_npm_log.pid")
    _npm_waits=0
    while [ ! -f "$_npm_log.rc" ] && [ -n "$_npm_pid" ] && [ -d "/proc/$_npm_pid" ]; do
        _npm_waits=$((_npm_waits + 1))
        if [ "$_npm_waits" -gt 4500 ]; then
            echo "FAIL: the npm modules' install (process $_npm_pid, $_npm_log) has not ended in 15 minutes" >&2
            exit 1
        fi
        sleep 0.2
    done
    if [ -f "$_npm_log.rc" ] && [ "$(cat "$_npm_log.rc")" != 0 ]; then
        sed 's/^/  install-deps: /' "$_npm_log" >&2
        echo "FAIL: installing the tests' npm modules failed (scripts/install-deps --npm, above)" >&2
        exit 1
    fi
    return 0
}
