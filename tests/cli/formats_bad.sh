# Bad harness files (tests/data/formats/bad/FORMAT/) are each a ctest entry
# of their own (refused/harness/FORMAT/NAME, run by tests/cli/lib/refused.sh).
# Here: that the corpus is there, and the usage errors of the harness
# options (exit 2, the store unchanged).
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
n=$(ls "$BENCHDB_SRC"/tests/data/formats/bad/*/*.err | wc -l)
[ "$n" -ge 25 ] || fail "only $n cases"
# docs/reliability.md (promise 6) counts the refused cases of each corpus.
nb=$(ls "$BENCHDB_SRC"/tests/data/bad/*.err | wc -l)
nc=$(ls -d "$BENCHDB_SRC"/tests/data/refused/*/ | wc -l)
for said in "\`refused/archive/NAME\`: $nb malformed archives" "\`refused/harness/FORMAT/NAME\`: $n bad harness files" \
            "\`refused/case/NAME\`: $nc wrong inputs"; do
    grep -qF -- "$said" "$BENCHDB_SRC/docs/reliability.md" || fail "docs/reliability.md does not say $said"
done
bd init >/dev/null
bd ingest -q "$DATA/good/example.jsonl"
before=$(snapshot)
for args in "--format nope --plan p --run r --host h x.json" "--format jmh --run r --host h x.json" \
            "--plan p x.jsonl" "--format jmh x.json" "--source abc x.jsonl" "--append x.jsonl" \
            "--format jmh --plan p --run r --host h --block 0 x.json" "--format jmh --plan p --run r --host h --attr x x.json" \
            "--plan p --run r --host h --attr a=1 --attr a=2 x.json" "--plan p --run r --host h --started-at yesterday x.json" \
            "--plan p --run r --host h --append --replace x.json" "--plan p --run r --host h --position 0 x.json"; do
    rc=0
    bd ingest $args >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" = 2 ] || fail "ingest $args: exit status $rc, expected 2"
    [ "$(wc -l <"$T/err")" = 1 ] || fail "ingest $args: more than one line: $(cat "$T/err")"
done
bd ingest --format nope --plan p --run r --host h x.json 2>&1 | head -1 | grep -qx \
    "error: ingest: --format 'nope': expected one of jmh, google-benchmark, hyperfine, pyperf, go-bench, criterion, cargo-bench, pytest-benchmark, asv, catch2, nanobench, tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf, csv (see 'benchdb ingest --help')" ||
    fail "unknown format message"
bd ingest --format jmh x.json 2>&1 | grep -qx \
    "error: ingest: --format goes with --plan, --run and --host (a run archive names its own runs) (see 'benchdb ingest --help')" ||
    fail "--format without a run"
# An empty name is the option's fault, said before the file is read (before:
# "FILE: run.plan: expected a non-empty string", exit 1, after reading it).
for opt in plan run host variant; do
    rc=0
    bd ingest --plan p --run r --host h "--$opt" '' "$BENCHDB_SRC/tests/data/harness/google-benchmark/error_base.json" \
        >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" = 2 ] || fail "ingest --$opt '': exit status $rc, expected 2"
    [ "$(cat "$T/err")" = "error: ingest: --$opt '': expected a name (not empty) (see 'benchdb ingest --help')" ] ||
        fail "ingest --$opt '': $(cat "$T/err")"
done
[ "$(snapshot)" = "$before" ] || fail "the store changed"
echo ok
