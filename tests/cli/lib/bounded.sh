# Running a command with bounds on its time and memory (sourced after
# common.sh): for the attacks (docs/reliability.md) that used to read until memory
# ran out, hang, or run without end.
#
# run_bounded SECONDS CMD...: runs CMD as run does (stdout in $T/out,
# stderr in $T/err, status in $rc), killing it after SECONDS (then rc is
# "killed"); $secs gets its wall time in seconds and $rss_kib its peak
# resident memory (ru_maxrss, KiB). Standard input is the caller's.
run_bounded() {
    set -- $(python3 "$BENCHDB_SRC/tests/cli/lib/bounded.py" "$T/out" "$T/err" "$@")
    rc=$1 secs=$2 rss_kib=$3
}

# expect_bounded WHAT MAX_SECONDS MAX_RSS_MIB: the last run_bounded ended
# (was not killed) within MAX_SECONDS, and, unless the binary runs under
# the sanitizers (whose shadow memory is not the program's), within
# MAX_RSS_MIB of peak memory.
expect_bounded() {
    checks=$((checks + 1))
    if [ "$rc" = killed ]; then
        fail "$1: still running after its time bound, killed"
        return
    fi
    awk -v s="$secs" -v m="$2" 'BEGIN { exit !(s <= m) }' || fail "$1: took $secs s, more than $2 s"
    if [ "${BENCHDB_SANITIZED:-0}" != 1 ] && [ "$rss_kib" -gt $(($3 * 1024)) ]; then
        fail "$1: peak memory $rss_kib KiB, more than $3 MiB"
    fi
}
