# Every generated file that Python's standard library makes (the schemas
# from schema/benchdb.schema, the functions' registration, declarations
# and index from src/fnshared/functions.json, the test cases and fixtures
# of tools/gen: tools/gen/regen.py, tier python) is what its generator
# writes now: the generators run in a copy of the tree, and each of their
# files must equal the committed one (make regen writes them; make
# regen-check runs every generator, R's and mpmath's too: docs/testing.md).
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
run python3 "$BENCHDB_SRC/tools/gen/regen.py" --tier python --check
expect_rc 0 "the generated files are current"
sed 's/^/  /' "$T/err" >&2
expect_out_has "every file as committed" "and the check ran"
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
