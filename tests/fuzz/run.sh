#!/bin/sh
# Runs every libFuzzer target of a BENCHDB_FUZZ build for SECONDS each, one
# after the other ('make fuzz'; docs/reliability.md). New inputs go to
# BUILD/fuzz-corpus/NAME (the committed tests/fuzz/corpus/NAME is read as
# seeds, never written); crashes to BUILD/fuzz-crashes/. Prints each
# target's executions, corpus size and findings, and exits 1 if any target
# crashed: copy the crash file into tests/fuzz/corpus/NAME/ (named
# crash-WHAT) so that 'make test' replays it from then on.
# usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]
set -u
build=${1:?usage: run.sh BUILD SECONDS [TARGET...]}
secs=${2:?usage: run.sh BUILD SECONDS [TARGET...]}
shift 2
src=$(cd "$(dirname "$0")" && pwd)
targets=${*:-$(cd "$src" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')}
found=0
for t in $targets; do
    mkdir -p "$build/fuzz-corpus/$t" "$build/fuzz-crashes"
    log="$build/fuzz-$t.log"
    echo "fuzz $t: ${secs} s ..."
    dict=
    [ -f "$src/$t.dict" ] && dict="-dict=$src/$t.dict"
    # shellcheck disable=SC2086
    "$build/fuzz_$t" $dict -max_total_time="$secs" -print_final_stats=1 -close_fd_mask=3 \
        -artifact_prefix="$build/fuzz-crashes/$t-" -rss_limit_mb=2048 \
        "$build/fuzz-corpus/$t" "$src/corpus/$t" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    corpus=$(ls "$build/fuzz-corpus/$t" | wc -l)
    crashes=$(ls "$build/fuzz-crashes" | grep -c "^$t-" || true)
    echo "fuzz $t: ${secs} s, ${execs:-?} executions, corpus $corpus new inputs (+ $(ls "$src/corpus/$t" | wc -l) committed), $crashes crash files, exit $rc"
    if [ "$rc" != 0 ]; then
        found=1
        grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -5
    fi
done
exit $found
