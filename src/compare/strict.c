/* The strict gate (compare --gate-strict; docs/compare.md): it fails,
 * exit 5, where the gate would pass without having judged everything the
 * baseline holds: a benchmark of the baseline missing from a side
 * compared with it (renamed, skipped, or failed: a failure has no
 * values), a failure the harness reported in such a side (even one with
 * values, as hyperfine's --ignore-failure keeps), or no cell judged at
 * all (one value a side: Bencher's BMF, Vitest, cargo bench). And
 * whether any cell was judged, which the first line says too. */
#include <string.h>

#include "compare/compare.h"
#include "compare/units.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The failures the harness reported in a side after the baseline. */
static size_t failed_later(const struct cmp_model *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->failures.n; i++)
        for (size_t s = 0; s < m->failures.v[i].nsides; s++)
            if (m->nsides && strcmp(m->failures.v[i].sides[s], m->sides[0]) != 0) {
                n++;
                break;
            }
    return n;
}

int cmp_counts_none_judged(const struct cmp_counts *c)
{
    for (int k = 0; k < CMP_NCLASS; k++)
        if (c->n[k] && k != CMP_INCONCLUSIVE && k != CMP_REMOVED && k != CMP_ADDED)
            return 0;
    return c->n[CMP_INCONCLUSIVE] > 0 && c->judged == 0;
}

int cmp_gate_incomplete(const struct cmp_model *m, const struct cmp_counts *c)
{
    return m->gate_strict && m->compared && !m->regressed &&
           (c->n[CMP_REMOVED] || failed_later(m) || cmp_counts_none_judged(c));
}

static int put_label(struct strbuf *sb, const char *s, int md)
{
    return md ? sb_put_markdown(sb, s, strlen(s), MD_TEXT) : sb_puts(sb, s);
}

/* The side compared with the baseline: its label with two sides, else
 * "the other sides" (a benchmark counted once per side, as the first
 * line counts it). */
static int put_later(struct strbuf *sb, const struct cmp_model *m, int md)
{
    return m->nsides == 2 ? put_label(sb, m->sides[1], md) : sb_puts(sb, "the other sides");
}

char *cmp_gate_incomplete_why(const struct cmp_model *m, const struct cmp_counts *c, int md)
{
    struct strbuf sb = {0};
    /* a missing benchmark the harness reported failed is said once, as missing */
    size_t missing = c->n[CMP_REMOVED], gone = c->removed_failed, failed = failed_later(m);
    failed = failed > gone ? failed - gone : 0;
    int rc = 0, parts = 0;
    if (missing) {
        rc |= sb_printf(&sb, "%zu benchmark%s of ", missing, missing == 1 ? "" : "s");
        rc |= put_label(&sb, m->sides[0], md);
        rc |= sb_puts(&sb, " missing from ");
        rc |= put_later(&sb, m, md);
        if (gone == missing)
            rc |= missing == 1   ? sb_puts(&sb, ", where it failed")
                  : missing == 2 ? sb_puts(&sb, ", where both failed")
                                 : sb_printf(&sb, ", where all %zu failed", gone);
        else if (gone)
            rc |= sb_printf(&sb, ", %zu of them failed there", gone);
        parts++;
    }
    if (failed) {
        rc |= sb_printf(&sb, "%s%zu %sfailure%s reported in ", parts++ ? "; " : "", failed, missing ? "other " : "",
                        failed == 1 ? "" : "s");
        rc |= put_later(&sb, m, md);
    }
    if (cmp_counts_none_judged(c)) {
        char alpha[40];
        cmp_go_float(m->alpha, alpha, sizeof alpha);
        rc |= sb_printf(&sb, "%sno cell judged: none has samples enough for p ≤ %s", parts++ ? "; " : "", alpha);
    }
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}
