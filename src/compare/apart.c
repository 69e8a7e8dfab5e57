/* Why nothing was compared (compare.h): the sentence that says so, naming
 * the configuration key that kept the sides apart when one did (benchstat's
 * crc-old.txt and crc-new.txt differ only in "note: hw acceleration
 * disabled" / "enabled", so each benchmark of one is a benchmark the other
 * does not hold). */
#include <string.h>

#include "compare/compare.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The first column of t that is (baseline 1) or is not (0) side, or NULL. */
static const char *col_of(const struct cmp_table *t, const char *side, int baseline)
{
    for (int j = 0; j < t->ncols; j++)
        if ((strcmp(t->cols[j], side) == 0) == baseline)
            return t->cols[j];
    return NULL;
}

static int share_a_row(const struct cmp_table *a, const struct cmp_table *b)
{
    for (size_t i = 0; i < a->nrows; i++)
        for (size_t k = 0; k < b->nrows; k++)
            if (strcmp(a->rows[i].label, b->rows[k].label) == 0)
                return 1;
    return 0;
}

/* The key alone in which table a (the baseline's) and b (another side's)
 * differ, or -1. */
static int only_key(const struct cmp_model *m, const struct cmp_table *a, const struct cmp_table *b)
{
    int key = -1;
    for (int k = 0; k < m->nfields; k++)
        if (strcmp(a->cfg[k], b->cfg[k]) != 0) {
            if (key >= 0)
                return -1;
            key = k;
        }
    return key;
}

int cmp_apart_key(const struct cmp_model *m, const char **va, const char **vb, const char **side_b)
{
    if (m->nsides < 2)
        return -1;
    for (size_t i = 0; i < m->ntables; i++) {
        const struct cmp_table *a = &m->tables[i];
        if (!col_of(a, m->sides[0], 1))
            continue;
        for (size_t j = 0; j < m->ntables; j++) {
            const struct cmp_table *b = &m->tables[j];
            if (j == i || !col_of(b, m->sides[0], 0) || !text_same(a->unit, b->unit) ||
                !text_same(a->metric, b->metric))
                continue;
            int k = only_key(m, a, b);
            if (k >= 0 && share_a_row(a, b)) {
                *va = a->cfg[k];
                *vb = b->cfg[k];
                *side_b = col_of(b, m->sides[0], 0);
                return k;
            }
        }
    }
    return -1;
}

/* The length of name without its trailing -N (Go's GOMAXPROCS suffix),
 * *suffix where that starts; the whole length and NULL without one. */
static size_t without_procs(const char *name, const char **suffix)
{
    size_t n = strlen(name), i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    *suffix = i < n && i > 1 && name[i - 1] == '-' ? name + i - 1 : NULL;
    return *suffix ? i - 1 : n;
}

/* Whether two names are one benchmark but for the -N suffix. */
static int same_but_procs(const char *a, const char *b)
{
    const char *sa, *sb;
    size_t na = without_procs(a, &sa), nb = without_procs(b, &sb);
    return sa && sb && na == nb && strncmp(a, b, na) == 0 && strcmp(sa, sb) != 0;
}

/* The length of a row's name before its first "/KEY=VALUE" parameter. */
static size_t without_params(const char *label)
{
    for (const char *p = strchr(label, '/'); p; p = strchr(p + 1, '/')) {
        const char *end = strchr(p + 1, '/'), *eq = strchr(p + 1, '=');
        if (eq && (!end || eq < end))
            return (size_t)(p - label);
    }
    return strlen(label);
}

/* Whether two names are one benchmark under other parameters (JMH's
 * @Param, a sub-benchmark's KEY=VALUE). */
static int same_but_params(const char *a, const char *b)
{
    size_t na = without_params(a);
    return without_params(b) == na && strncmp(a, b, na) == 0 && strcmp(a, b) != 0;
}

/* The part of a name between slashes that starts at p (up to the next '/'
 * or the end): its length. */
static size_t part_len(const char *p)
{
    const char *e = strchr(p, '/');
    return e ? (size_t)(e - p) : strlen(p);
}

/* Whether part p (n bytes) is KEY:VALUE, KEY a lower-case word
 * (repeats, threads, min_time), VALUE not empty and no second ':' (a
 * C++ or Rust path's "::"): where the ':' is, or NULL. */
static const char *setting_colon(const char *p, size_t n)
{
    size_t k = 0;
    while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || p[k] == '_'))
        k++;
    return k > 0 && k + 1 < n && p[k] == ':' && !memchr(p + k + 1, ':', n - k - 1) ? p + k : NULL;
}

/* Whether two names differ in one '/'-separated part alone, both of it
 * KEY:VALUE of one KEY: Google Benchmark's run settings in the name
 * (BM_Sort/repeats:5 and BM_Sort/repeats:10, threads:2, min_time:0.5);
 * *key_len the KEY's length in a's part at *at. */
static int one_setting_apart(const char *a, const char *b, const char **at, size_t *key_len)
{
    int apart = 0;
    for (;;) {
        size_t na = part_len(a), nb = part_len(b);
        if (na != nb || strncmp(a, b, na) != 0) {
            const char *ca = setting_colon(a, na), *cb = setting_colon(b, nb);
            if (apart++ || !ca || !cb || ca - a != cb - b || strncmp(a, b, (size_t)(ca - a)) != 0)
                return 0;
            *at = a;
            *key_len = (size_t)(ca - a);
        }
        if (!a[na] || !b[nb])
            return apart && !a[na] && !b[nb];
        a += na + 1;
        b += nb + 1;
    }
}

static int same_but_setting(const char *a, const char *b)
{
    const char *at;
    size_t k;
    return one_setting_apart(a, b, &at, &k);
}

/* Whether a row of the baseline and a row of another side (in tables of
 * one unit) are one benchmark by same(): *ra, *rb the two names, *side_b
 * the other side. */
static int apart_by(const struct cmp_model *m, int (*same)(const char *, const char *), const char **ra,
                    const char **rb, const char **side_b)
{
    for (size_t i = 0; m->nsides >= 2 && i < m->ntables; i++) {
        const struct cmp_table *a = &m->tables[i];
        int ea = -1;
        for (int e = 0; e < a->ncols; e++)
            ea = strcmp(a->cols[e], m->sides[0]) == 0 ? e : ea;
        for (size_t r = 0; ea >= 0 && r < a->nrows; r++) {
            if (!a->rows[r].cells[ea].present)
                continue;
            for (size_t j = 0; j < m->ntables; j++) {
                const struct cmp_table *b = &m->tables[j];
                for (size_t k = 0; text_same(a->unit, b->unit) && k < b->nrows; k++)
                    for (int e = 0; e < b->ncols; e++)
                        if (strcmp(b->cols[e], m->sides[0]) != 0 && b->rows[k].cells[e].present &&
                            same(a->rows[r].label, b->rows[k].label)) {
                            *ra = a->rows[r].label;
                            *rb = b->rows[k].label;
                            *side_b = b->cols[e];
                            return 1;
                        }
            }
        }
    }
    return 0;
}

/* The one benchmark (row name) side holds in every table, or NULL when it
 * holds none or several. */
static const char *only_row(const struct cmp_model *m, const char *side)
{
    const char *one = NULL;
    for (size_t i = 0; i < m->ntables; i++) {
        const struct cmp_table *t = &m->tables[i];
        for (int e = 0; e < t->ncols; e++)
            for (size_t r = 0; strcmp(t->cols[e], side) == 0 && r < t->nrows; r++) {
                if (!t->rows[r].cells[e].present)
                    continue;
                if (one && strcmp(one, t->rows[r].label) != 0)
                    return NULL;
                one = t->rows[r].label;
            }
    }
    return one;
}

/* Whether side holds a measured value in any table. */
static int side_measured(const struct cmp_model *m, const char *side)
{
    for (size_t i = 0; i < m->ntables; i++) {
        const struct cmp_table *t = &m->tables[i];
        for (int e = 0; e < t->ncols; e++)
            for (size_t r = 0; strcmp(t->cols[e], side) == 0 && r < t->nrows; r++)
                if (t->rows[r].cells[e].present)
                    return 1;
    }
    return 0;
}

/* A side without a measured value (every benchmark of a head that
 * crashed, say): "; allerr.json holds no measured value: every
 * benchmark it ran failed" (the failures follow, cmp_failures_clause).
 * The first such side; nothing
 * when each side has values. */
static int put_side_empty(struct strbuf *sb, const struct cmp_model *m)
{
    for (int s = 0; s < m->nsides; s++)
        if (!side_measured(m, m->sides[s]))
            return sb_printf(sb, "; %s holds no measured value%s", m->sides[s],
                             cmp_failures_in(&m->failures, NULL, m->sides[s]) ? ": every benchmark it ran failed" : "");
    return 0;
}

/* One benchmark a side under two names (hyperfine's commands
 * './old/app' and './new/app'): "; each side holds one benchmark, named
 * apart: ...". Nothing when a side holds several. */
static int put_one_each(struct strbuf *sb, const struct cmp_model *m)
{
    const char *a = m->nsides >= 2 ? only_row(m, m->sides[0]) : NULL, *b = NULL;
    int s = 1;
    while (a && s < m->nsides && !(b = only_row(m, m->sides[s])))
        s++;
    if (!b)
        return 0;
    int hf = m->formats && strcmp(m->formats[0], "hyperfine") == 0;
    return sb_printf(sb, "; each side holds one benchmark, named apart: %s in %s, %s in %s (a benchmark is "
                         "compared with the one of its name: give both one name%s)",
                     a, m->sides[0], b, m->sides[s], hf ? ", as hyperfine's --command-name NAME does" : "");
}

/* Files of different harnesses name their benchmarks each its own way:
 * "; the sides are files of different harnesses: jmh in a.json,
 * google-benchmark in b.json". Nothing when every side's are alike. */
static int other_harness(const struct cmp_model *m)
{
    int s = 1;
    while (m->formats && s < m->nsides && strcmp(m->formats[s], m->formats[0]) == 0)
        s++;
    return m->formats && s < m->nsides ? s : 0;
}

char *cmp_nothing_compared_why(const struct cmp_model *m)
{
    struct strbuf sb = {0};
    int rc = sb_printf(&sb, "no cell has values both in %s and in another side", m->sides[0]);
    const char *va, *vb, *side_b;
    int k = cmp_apart_key(m, &va, &vb, &side_b);
    size_t said = sb.len;
    rc |= put_side_empty(&sb, m);
    if (sb.len > said) {
        /* that is the reason: one side has nothing to compare */
    } else if (k >= 0) {
        rc |= sb_printf(&sb, "; the same benchmarks are on both sides under another configuration: %s is '%s' in %s, '%s' in %s",
                        m->fields[k], va, m->sides[0], vb, side_b);
        if (m->ignore_option)
            rc |= sb_printf(&sb, " (%s %s compares across it)", m->ignore_option, m->fields[k]);
    } else if (apart_by(m, same_but_procs, &va, &vb, &side_b))
        rc |= sb_printf(&sb, "; the same benchmarks are on both sides under another -N suffix (GOMAXPROCS, part of "
                             "the name as in benchstat): %s in %s, %s in %s", va, m->sides[0], vb, side_b);
    else if (apart_by(m, same_but_params, &va, &vb, &side_b))
        rc |= sb_printf(&sb, "; the same benchmarks are on both sides under other parameters: %s in %s, %s in %s", va,
                        m->sides[0], vb, side_b);
    else if (apart_by(m, same_but_setting, &va, &vb, &side_b)) {
        const char *at;
        size_t klen;
        one_setting_apart(va, vb, &at, &klen);
        rc |= sb_printf(&sb, "; the same benchmarks are on both sides under another %.*s (part of the name, as "
                             "Google Benchmark writes it): %s in %s, %s in %s",
                        (int)klen, at, va, m->sides[0], vb, side_b);
    }
    else if (other_harness(m))
        rc |= sb_printf(&sb, "; the sides are files of different harnesses: %s in %s, %s in %s", m->formats[0],
                        m->sides[0], m->formats[other_harness(m)], m->sides[other_harness(m)]);
    else
        rc |= put_one_each(&sb, m);
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}
