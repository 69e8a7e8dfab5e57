# The folders of src/ depend on each other one way only, as the module map
# in docs/architecture.md draws them, and no new cycle joins two modules:
# tests/cli/lib/src_layers.py reads every #include and the object files'
# symbols (nm).
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
: "${BENCHDB_BUILD:?set by ctest}"
command -v nm >/dev/null || fail "nm (binutils) is missing"
python3 "$LIB/src_layers.py" "$BENCHDB_SRC" "$BENCHDB_BUILD" || fail "layering of src/"
