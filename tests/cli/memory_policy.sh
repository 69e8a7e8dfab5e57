# The memory policy (docs/architecture.md, "Memory"): nowhere
# `p = realloc(p, ...)`, and in the layers that do not unwind every
# allocation from util/xalloc.h or checked. tests/cli/lib/memory_policy.py
# reads src/; it is first shown a tree with each kind of finding and each
# kind of check it accepts, so that a rule it stopped seeing would fail here.
# ctest: plain-only
#   (plain-only: runs no benchdb program: no coverage counts at all (tools/plain_only_cover.py --all-unique, 2026-12-03))
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
mkdir -p "$T/bad/src/query" "$T/bad/src/ingest"
cat > "$T/bad/src/query/bad.c" <<'C'
/* malloc(1) in a comment, p = realloc(p, 2) too */
static const char *s = "strdup(x) in a string";
int f(char **v, size_t n, struct strbuf *sb, struct q *q)
{
    char *a = malloc(n);
    q->names = realloc(q->names, n * sizeof *q->names);
    use(strdup("x"));
    *v = strndup(s, n);
    q->u = sb_detach(sb);
    char *b = calloc(n, 1);
    if (!b)
        return -1;
    char *c;
    if (!(c = strdup(s)))
        return -1;
    q->t = n ? strdup(s) : NULL;
    if (n && !q->t)
        return -1;
    char *d = xmalloc(n), *e = xstrdup(s);
    v = xreallocarray(v, n, sizeof *v);
    if (sb->failed)
        return -1;
    *v = sb_detach(sb);
    return 0;
}
C
cat > "$T/bad/src/ingest/unwinds.c" <<'C'
int g(void **m, size_t n)
{
    char *a = malloc(n);  /* checked by the fault test, not by this reader */
    *m = realloc(*m, n);
    return 0;
}
C
out=$(python3 "$LIB/memory_policy.py" "$T/bad") && fail "the checker passed a tree it must refuse"
expect="src/ingest/unwinds.c:4: *m = realloc(*m, ...) loses the block when the call fails
src/query/bad.c:5: malloc() result not checked; use util/xalloc.h (xmalloc) or test it
src/query/bad.c:6: q->names = realloc(q->names, ...) loses the block when the call fails
src/query/bad.c:6: realloc() result not checked; use util/xalloc.h (xreallocarray) or test it
src/query/bad.c:7: strdup() result not checked; use util/xalloc.h (xstrdup) or test it
src/query/bad.c:8: strndup() result not checked; use util/xalloc.h (xstrndup) or test it
src/query/bad.c:9: sb_detach() result not checked; use util/xalloc.h (xsb_detach) or test it"
[ "$out" = "$expect" ] || fail "expected exactly these findings in the bad tree:
$expect
got
$out"
python3 "$LIB/memory_policy.py" "$BENCHDB_SRC" || fail "src/ does not follow the memory policy (docs/architecture.md, \"Memory\")"
