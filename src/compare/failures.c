/* What the harness itself reported as failed (compare.h, "failures"):
 * a benchmark that errored or was skipped, a command that exited
 * non-zero. Each is said with the comparison's answer, since a benchmark
 * that failed has no values (it shows as removed or added, or not at all)
 * or values of a failing command, and neither is a measurement to judge
 * silently (docs/queries.md, "The pull-request comment"). */
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int cmp_failures_add(struct cmp_failures *f, const char *side, const char *name, const char *what)
{
    for (size_t i = 0; i < f->n; i++) {
        struct cmp_failure *x = &f->v[i];
        if (strcmp(x->name, name) != 0 || strcmp(x->what, what) != 0)
            continue;
        if (strcmp(x->sides[0], side) == 0) {
            x->times++;
            return 0;
        }
        for (size_t s = 1; s < x->nsides; s++)
            if (strcmp(x->sides[s], side) == 0)
                return 0;
        x->sides = xreallocarray(x->sides, x->nsides + 1, sizeof *x->sides);
        x->sides[x->nsides++] = xstrdup(side);
        return 0;
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        f->v = xreallocarray(f->v, cap, sizeof *f->v);
        f->cap = cap;
    }
    char **sides = xcalloc(1, sizeof *sides);
    sides[0] = xstrdup(side);
    f->v[f->n++] = (struct cmp_failure){xstrdup(name), xstrdup(what), sides, 1, 1};
    return 0;
}

void cmp_failures_free(struct cmp_failures *f)
{
    for (size_t i = 0; i < f->n; i++) {
        for (size_t s = 0; s < f->v[i].nsides; s++)
            free(f->v[i].sides[s]);
        free(f->v[i].sides);
        free(f->v[i].name);
        free(f->v[i].what);
    }
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* Text, Markdown-escaped when md. */
static int put_text(struct strbuf *sb, const char *s, int md)
{
    return md ? sb_put_markdown(sb, s, strlen(s), MD_TEXT) : sb_puts(sb, s);
}

/* "NAME in SIDE and SIDE (WHAT, 2 times)", Markdown-escaped when md. */
static int put_one(struct strbuf *sb, const struct cmp_failure *x, int md)
{
    int rc = put_text(sb, x->name, md) || sb_puts(sb, " in ");
    for (size_t s = 0; s < x->nsides; s++)
        rc |= (s ? sb_puts(sb, s + 1 == x->nsides ? " and " : ", ") : 0) || put_text(sb, x->sides[s], md);
    rc |= sb_puts(sb, " (") || put_text(sb, x->what, md);
    if (x->times > 1)
        rc |= sb_printf(sb, ", %zu times", x->times);
    return rc | sb_putc(sb, ')');
}

int cmp_failures_clause(struct strbuf *sb, const struct cmp_failures *f, int md)
{
    if (!f->n)
        return 0;
    int rc = sb_printf(sb, "; the harness reported %zu failure%s: ", f->n, f->n == 1 ? "" : "s");
    size_t shown = f->n <= CMP_FAILURES_SHOWN ? f->n : CMP_FAILURES_SHOWN - 1;
    for (size_t i = 0; i < shown; i++)
        rc |= (i ? sb_puts(sb, ", ") : 0) || put_one(sb, &f->v[i], md);
    if (shown < f->n)
        rc |= sb_printf(sb, " and %zu more (listed %s)", f->n - shown, md ? "below" : "after the tables");
    return rc;
}

int cmp_failures_list(struct strbuf *sb, const struct cmp_failures *f)
{
    if (!f->n)
        return 0;
    int rc = sb_puts(sb, "Failures the harness reported:\n\n");
    for (size_t i = 0; i < f->n; i++)
        rc |= sb_puts(sb, "- ") || put_one(sb, &f->v[i], 1) || sb_putc(sb, '\n');
    return rc | sb_putc(sb, '\n');
}

char *cmp_failure_text(const struct cmp_failure *x)
{
    struct strbuf sb = {0};
    put_one(&sb, x, 0);
    return xsb_detach(&sb);
}

char *cmp_failures_json(const struct cmp_failures *f)
{
    struct strbuf sb = {0};
    int rc = sb_putc(&sb, '[');
    for (size_t i = 0; i < f->n; i++) {
        const struct cmp_failure *x = &f->v[i];
        rc |= (i ? sb_puts(&sb, ", ") : 0) || sb_puts(&sb, "{\"sides\": [");
        for (size_t k = 0; k < x->nsides; k++)
            rc |= (k ? sb_puts(&sb, ", ") : 0) || sb_json_string(&sb, x->sides[k], strlen(x->sides[k]));
        rc |= sb_puts(&sb, "], \"benchmark\": ") ||
              sb_json_string(&sb, x->name, strlen(x->name)) || sb_puts(&sb, ", \"what\": ") ||
              sb_json_string(&sb, x->what, strlen(x->what)) || sb_printf(&sb, ", \"times\": %zu}", x->times);
    }
    rc |= sb_putc(&sb, ']');
    (void)rc; /* a failed append fails the detach */
    return xsb_detach(&sb);
}

int cmp_failures_in(const struct cmp_failures *f, const char *name, const char *side)
{
    for (size_t i = 0; i < f->n; i++)
        for (size_t k = 0; (!name || strcmp(f->v[i].name, name) == 0) && k < f->v[i].nsides; k++)
            if (strcmp(f->v[i].sides[k], side) == 0)
                return 1;
    return 0;
}
