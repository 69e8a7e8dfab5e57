# pytest-benchmark itself (Debian's python3-pytest-benchmark, run by
# Debian's python3): a tiny parametrised benchmark and a pedantic one with
# warm-up rounds write --benchmark-json; the file loads with its format
# recognised, and every value stored is the file's (stats.data, per call)
# as tests/cli/lib/harness_values.py reads it; the statistics stay in the
# detail; the two files compare.
# ctest: plain-only slow
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); the tool's output shape loads under ASan in cli/formats_samples)
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
PY=/usr/bin/python3
$PY -c 'import pytest_benchmark' 2>/dev/null ||
    fail "pytest-benchmark is missing: scripts/install-deps installs python3-pytest-benchmark"
cat >"$T/test_tiny.py" <<'PYEOF'
import pytest

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

@pytest.mark.parametrize("n", [4, 9])
def test_fib(benchmark, n):
    benchmark.extra_info["n_squared"] = n * n
    assert benchmark(fib, n) >= 0

def test_pedantic(benchmark):
    benchmark.pedantic(fib, args=(7,), rounds=6, iterations=4, warmup_rounds=2)
PYEOF
for i in 1 2; do
    (cd "$T" && $PY -m pytest -q -p no:cacheprovider --benchmark-json="$T/run$i.json" --benchmark-max-time=0.002 \
        --benchmark-min-rounds=5 test_tiny.py >"$T/pytest.out" 2>&1) || fail "pytest: $(tail -5 "$T/pytest.out")"
done
bd init >/dev/null
bd ingest -q --plan tool --run r1 --host h "$T/run1.json" || fail "not loaded"
expect_rows "read as" "SELECT format FROM archive_member WHERE path = 'files/run1.json'" "pytest-benchmark"
python3 "$LIB/harness_values.py" pytest-benchmark "$T/store.db" r1 "$T/run1.json" >/dev/null || fail "values differ"
# pedantic: 6 rounds stored (warm-up rounds are not written), each the time of one call
expect_rows "pedantic" "SELECT s.n, json_extract(s.detail, '$.stats.iterations'), json_extract(s.detail, '$.stats.rounds')
                        FROM series s JOIN benchmark b ON b.id = s.benchmark_id WHERE b.name LIKE '%test_pedantic'" "6,4,6"
expect_rows "params" "SELECT b.params FROM benchmark b WHERE b.name LIKE '%::test_fib' ORDER BY b.params" \
    '"{""n"":4}"
"{""n"":9}"'
out=$(bd compare "a=$T/run1.json" "b=$T/run2.json" 2>"$T/err") || fail "compare: $(cat "$T/err")"
echo "$out" | grep -q "test_fib" || fail "compare: $out"
echo ok
