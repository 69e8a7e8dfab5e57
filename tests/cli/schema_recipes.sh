# docs/schema.md's recipes: the ```sh block makes the store, then each
# ```sql recipe block runs through `benchdb sql` and prints exactly the
# ```text block after it. (pg/commands runs the same SQL on PostgreSQL.)
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); the recipes' SQL is SQLite's work)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
mkdir bin recipes
ln -s "$BENCHDB_BIN" bin/benchdb
ln -s "$BENCHDB_SRC/examples" examples
python3 - "$BENCHDB_SRC/docs/schema.md" <<'PY' || { echo "cannot read the recipes"; exit 1; }
import re, sys
text = open(sys.argv[1]).read()
part = text[text.index("\n## Recipes\n"):]
setup = re.search(r"```sh\n(.*?)```", part, re.S).group(1)
open("setup.sh", "w").write(setup)
pairs = re.findall(r"```sql recipe\n(.*?)```\n\n```text\n(.*?)```", part, re.S)
assert len(pairs) == 10, len(pairs)
for i, (sql, want) in enumerate(pairs, 1):
    open("recipes/%02d.sql" % i, "w").write(sql)
    open("recipes/%02d.want" % i, "w").write(want)
PY
PATH="$T/bin:$PATH" sh -e setup.sh >setup.out 2>setup.err || fail "the recipes' setup: $(cat setup.err)"
for f in recipes/*.sql; do
    run bd sql --file "$f"
    expect_rc 0 "recipe $f"
    checks=$((checks + 1))
    cmp -s "$T/out" "${f%.sql}.want" || { fail "recipe $f prints otherwise"; diff "${f%.sql}.want" "$T/out" | head -10 >&2; }
done
finish
