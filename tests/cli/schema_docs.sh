# docs/schema.md describes every table and view of the store's description
# (schema/benchdb.schema) in a paragraph of its own ("**name**: ..."; a
# table of one engine at least in passing, "**name**"), and describes no
# table or view the description does not have (but the runner's
# schema_migration).
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
run python3 - "$BENCHDB_SRC" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1] + "/tools/gen")
import schema
d = schema.parse()
doc = open(sys.argv[1] + "/docs/schema.md", encoding="utf-8").read()
described = set(re.findall(r"^\*\*(\w+)\*\*:", doc, re.M))
bold = set(re.findall(r"\*\*(\w+)\*\*", doc))
both = {t.name for t in d.tables if len(t.engines) == 2} | set(d.views)
one = {t.name for t in d.tables if len(t.engines) == 1}
bad = ["%s is not described (a paragraph beginning **%s**:)" % (n, n) for n in sorted(both - described)]
bad += ["%s (one engine's) is not named (**%s**)" % (n, n) for n in sorted(one - bold)]
bad += ["**%s** is described but the description has no such table or view" % n
        for n in sorted(described - both - one - {"schema_migration"})]
print("\n".join(bad) if bad else "%d tables and views described" % len(described))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "docs/schema.md and schema/benchdb.schema agree"
cat "$T/out"
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
