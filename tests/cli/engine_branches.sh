# The differences of engine stay in the connection layer (src/store) and
# the extension (src/pg): elsewhere in src/ at most 8 lines ask which
# engine a store is on (db_engine, db_sqlite, db_is_server_name,
# db_can_copy, the engine's enum, or the ingest sink's by_copy, which
# db_can_copy decides), each with a comment on it or just above it saying
# why (docs/architecture.md, "The connection layer").
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
run python3 - "$BENCHDB_SRC/src" <<'PY'
import os, re, sys
src = sys.argv[1]
ask = re.compile(r"\b(db_engine|db_sqlite|db_is_server_name|db_can_copy)\s*\(|\bDB_(POSTGRESQL|SQLITE)\b|->by_copy\b")
sites, bare = [], []
for top, dirs, files in os.walk(src):
    rel = os.path.relpath(top, src)
    if rel.split(os.sep)[0] in ("store", "pg"):
        continue
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        lines = open(os.path.join(top, f), encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            code = re.sub(r"/\*.*?\*/|//.*", "", line)
            if not ask.search(code):
                continue
            where = "%s:%d" % (os.path.join(rel, f), i + 1)
            sites.append(where)
            if not any("/*" in x or "*/" in x or x.strip().startswith("*") for x in lines[max(0, i - 3):i + 1]):
                bare.append(where)
for s in sites:
    print(s)
print("%d engine branches outside src/store and src/pg" % len(sites))
bad = len(sites) > 8 or bare
for b in bare:
    print("%s asks which engine without a comment saying why" % b)
sys.exit(1 if bad else 0)
PY
expect_rc 0 "at most 8 engine branches outside src/store and src/pg, each explained"
cat "$T/out"
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
