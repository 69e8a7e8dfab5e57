# src/ingest has no include or call cycle, and its folders depend on each
# other one way only (docs/architecture.md): tests/cli/lib/layers.py reads
# the #include lines and the object files' symbols.
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
: "${BENCHDB_BUILD:?set by ctest}"
command -v nm >/dev/null || fail "nm (binutils) is missing"
python3 "$LIB/layers.py" "$BENCHDB_SRC" "$BENCHDB_BUILD" || fail "layering"
