# docs/schema.md describes every table and view of the store's description
# (schema/benchdb.schema) in a paragraph of its own ("**name**: ..."; a
# table of one engine at least in passing, "**name**"), and describes no
# table or view the description does not have (but the runner's
# schema_migration); and each view's paragraph names every column the
# view has.
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
# Each view's paragraph names every column the view has (`name`), as
# SQLite makes the view from schema/schema.sql (the description's own SQL).
import sqlite3
db = sqlite3.connect(":memory:")
db.executescript(open(sys.argv[1] + "/schema/schema.sql", encoding="utf-8").read())
paragraphs = {m.group(1): m.group(2) for m in re.finditer(r"^\*\*(\w+)\*\*:(.*?)(?=\n\n|\Z)", doc, re.M | re.S)}
for v in sorted(d.views):
    cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % v)]
    assert cols, v
    named = set(re.findall(r"`(\w+)`", paragraphs.get(v, "")))
    bad += ["view %s: column %s is not named in its paragraph (`%s`)" % (v, c, c) for c in cols if c not in named]
print("\n".join(bad) if bad else "%d tables and views described, every view's columns named" % len(described))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "docs/schema.md and schema/benchdb.schema agree"
cat "$T/out"
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
