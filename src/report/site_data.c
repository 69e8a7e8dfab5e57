/* The store as the site shows it: every history (per plan, host, cell and
 * metric; a line per variant), its runs in order and its change points,
 * found as the saved query regressions finds them (Otava's, with its
 * window, p-value and magnitude), each labelled a regression or an
 * improvement by the unit's direction. Read in one pass over
 * history_point, and ordered in C (byte order), so that both engines give
 * the same site. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/evaluate.h"
#include "report/display.h"
#include "report/site.h"
#include "stats/changepoint.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/xalloc.h"

/* ---- interned names: a history point repeats its plan, host, cell ... ---- */

struct intern {
    char **slot;
    size_t cap, n;
    char **all; /* every string, to free */
};

static uint64_t hash_of(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The one copy of s (NULL stays NULL); NULL with *oom when memory ran out. */
static char *intern(struct intern *t, const char *s, int *oom)
{
    if (!s)
        return NULL;
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        char **slot = xcalloc(cap, sizeof *slot);
        if (!slot) {
            *oom = 1;
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) {
                size_t j = hash_of(t->slot[i]) & (cap - 1);
                while (slot[j])
                    j = (j + 1) & (cap - 1);
                slot[j] = t->slot[i];
            }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t j = hash_of(s) & (t->cap - 1);
    while (t->slot[j] && strcmp(t->slot[j], s) != 0)
        j = (j + 1) & (t->cap - 1);
    if (!t->slot[j]) {
        if (!(t->slot[j] = xstrdup(s))) {
            *oom = 1;
            return NULL;
        }
        t->n++;
    }
    return t->slot[j];
}

static void intern_free(struct intern *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i]);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* ---- reading ---- */

struct row {
    const char *plan, *host, *benchmark, *params, *metric, *variant, *unit, *direction, *started;
    long long run_id, position;
    int has_position;
    double value;
    long long n;
};

static const char *col(struct db_stmt *st, int i) { return (const char *)db_column_text(st, i); }

static int cmp_text(const char *a, const char *b)
{
    if (!a || !b)
        return (a == NULL) - (b == NULL); /* NULL last */
    return strcmp(a, b);
}

/* A history's order: its names, then the variant, then the run order of
 * docs/queries.md: started, position (each NULL last), run name. */
static const struct site_run *g_runs; /* for the comparison below */
static const long long *g_run_ids;
static size_t g_nruns;

static const char *run_name(long long id)
{
    size_t lo = 0, hi = g_nruns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g_run_ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g_nruns && g_run_ids[lo] == id ? g_runs[lo].name : "";
}

static int cmp_row(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    int c;
    if ((c = cmp_text(x->plan, y->plan)) || (c = cmp_text(x->host, y->host)) ||
        (c = cmp_text(x->benchmark, y->benchmark)) || (c = cmp_text(x->params, y->params)) ||
        (c = cmp_text(x->metric, y->metric)) || (c = cmp_text(x->variant, y->variant)) ||
        (c = cmp_text(x->started, y->started)))
        return c;
    if (x->has_position != y->has_position)
        return y->has_position - x->has_position;
    if (x->position != y->position)
        return x->position < y->position ? -1 : 1;
    return strcmp(run_name(x->run_id), run_name(y->run_id));
}

static int read_runs(struct site *s, long long **ids, char **err)
{
    struct db_stmt *st;
    if (db_prepare(s->db,
                   "SELECT r.id, r.name, r.source, r.started_at, p.name, h.name FROM run AS r "
                   "JOIN plan AS p ON p.id = r.plan_id JOIN host AS h ON h.id = r.host_id ORDER BY r.id",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the runs: %s", db_errmsg(s->db));
    size_t cap = 0;
    int rc = 0, step;
    while (rc == 0 && (step = db_step(st)) == SQLITE_ROW) {
        if (s->nruns == cap) {
            cap = cap ? 2 * cap : 256;
            struct site_run *r = xreallocarray(s->runs, cap, sizeof *r);
            long long *i = r ? xreallocarray(*ids, cap, sizeof *i) : NULL;
            if (r)
                s->runs = r;
            if (i)
                *ids = i;
            if (!r || !i) {
                rc = bd_fail(err, "out of memory");
                break;
            }
        }
        struct site_run *r = &s->runs[s->nruns];
        (*ids)[s->nruns] = db_column_int64(st, 0);
        r->name = xstrdup(col(st, 1) ? col(st, 1) : "");
        r->revision = col(st, 2) ? xstrdup(col(st, 2)) : NULL;
        r->started_at = col(st, 3) ? xstrdup(col(st, 3)) : NULL;
        r->plan = xstrdup(col(st, 4) ? col(st, 4) : "");
        r->host = xstrdup(col(st, 5) ? col(st, 5) : "");
        s->nruns++;
        if (!r->name || (col(st, 2) && !r->revision) || (col(st, 3) && !r->started_at) || !r->plan || !r->host)
            rc = bd_fail(err, "out of memory");
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = bd_fail(err, "cannot read the runs: %s", db_errmsg(s->db));
    db_finalize(st);
    return rc;
}

static int read_points(struct site *s, struct intern *names, struct row **rows, size_t *n, char **err)
{
    struct db_stmt *st;
    if (db_prepare(s->db,
                   "SELECT plan, host, benchmark, params, metric, variant, unit, direction, run_id, started, position, "
                   "value, n FROM history_point",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the histories: %s", db_errmsg(s->db));
    size_t cap = 0;
    int oom = 0, step;
    while (!oom && (step = db_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 4096;
            struct row *r = xreallocarray(*rows, cap, sizeof *r);
            if (!r) {
                oom = 1;
                break;
            }
            *rows = r;
        }
        struct row *r = &(*rows)[(*n)++];
        const char **text[] = {&r->plan,    &r->host, &r->benchmark, &r->params, &r->metric,
                               &r->variant, &r->unit, &r->direction};
        for (int k = 0; k < 8; k++)
            *text[k] = intern(names, col(st, k), &oom);
        r->run_id = db_column_int64(st, 8);
        r->started = intern(names, col(st, 9), &oom);
        r->has_position = db_column_type(st, 10) != SQLITE_NULL;
        r->position = db_column_int64(st, 10);
        r->value = db_column_double(st, 11);
        r->n = db_column_int64(st, 12);
    }
    int rc = 0;
    if (oom)
        rc = bd_fail(err, "out of memory");
    else if (step != SQLITE_DONE)
        rc = bd_fail(err, "cannot read the histories: %s", db_errmsg(s->db));
    db_finalize(st);
    return rc;
}

/* ---- histories ---- */

static int same_history(const struct row *a, const struct row *b)
{
    return a->plan == b->plan && a->host == b->host && a->benchmark == b->benchmark && a->params == b->params &&
           a->metric == b->metric; /* interned: one pointer per text */
}

/* "h/nightly-ci-b-serialize-format-binary-...-1a2b3c4d5e.html": readable,
 * and unique by the hash of the history's names. */
static char *history_file(const struct site_history *h)
{
    struct strbuf key = {0}, slug = {0};
    const char *parts[] = {h->plan, h->host, h->benchmark, h->params, h->metric};
    for (int k = 0; k < 5; k++) {
        sb_printf(&key, "%s%s", k ? "\x1f" : "", parts[k] ? parts[k] : "");
        for (const char *p = parts[k] ? parts[k] : ""; *p && slug.len < 80; p++) {
            char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
            int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (ok)
                sb_putc(&slug, c);
            else if (slug.len && slug.buf[slug.len - 1] != '-')
                sb_putc(&slug, '-');
        }
        if (slug.len && slug.buf[slug.len - 1] != '-')
            sb_putc(&slug, '-');
    }
    char sha[65];
    sha256_hex_of(key.buf ? key.buf : "", key.len, sha);
    char *file = key.failed || slug.failed ? NULL : bd_strdupf("h/%s%.10s.html", slug.buf ? slug.buf : "", sha);
    sb_free(&key);
    sb_free(&slug);
    return file;
}

static int line_changes(struct site *s, struct site_history *h, struct site_line *l)
{
    size_t n = l->count;
    double *x = xmalloc((n ? n : 1) * sizeof *x);
    size_t w = (size_t)s->window;
    void *work = xmalloc(changepoint_work_size(n, w) + 16);
    struct changepoint *cp = xmalloc((n ? n : 1) * sizeof *cp);
    int rc = x && work && cp ? 0 : -1;
    if (rc == 0) {
        for (size_t j = 0; j < n; j++)
            x[j] = h->pts[l->first + j].value;
        size_t k = changepoint_otava(x, n, w, s->max_pvalue, s->min_magnitude, work, cp);
        l->cps = xcalloc(k ? k : 1, sizeof *l->cps);
        rc = l->cps ? 0 : -1;
        for (size_t j = 0; rc == 0 && j < k; j++) {
            struct site_cp *c = &l->cps[l->ncps++];
            c->at = l->first + cp[j].index;
            c->before = cp[j].mean_before;
            c->after = cp[j].mean_after;
            c->change = changepoint_forward_change(&cp[j]) * 100;
            c->pvalue = cp[j].pvalue;
            /* regressions.sql: worse by the unit's direction (unknown: lower is better) */
            int higher = h->direction && strcmp(h->direction, "higher") == 0;
            c->regression = c->change != 0 && (c->change > 0) != higher;
        }
    }
    free(x);
    free(work);
    free(cp);
    return rc;
}

/* Makes history h of rows[a, b) (sorted): its points, a line per variant,
 * change points, the latest of them. */
static int make_history(struct site *s, struct site_history *h, const struct row *rows, size_t a, size_t b,
                        const long long *ids)
{
    const struct row *r0 = &rows[a];
    *h = (struct site_history){.plan = (char *)r0->plan, .host = (char *)r0->host, .benchmark = (char *)r0->benchmark,
                               .params = (char *)r0->params, .metric = (char *)r0->metric, .unit = (char *)r0->unit,
                               .direction = (char *)r0->direction};
    h->pts = xmalloc((b - a) * sizeof *h->pts);
    h->lines = xcalloc(b - a, sizeof *h->lines);
    h->file = history_file(h);
    if (!h->pts || !h->lines || !h->file)
        return -1;
    for (size_t i = a; i < b; i++) {
        const struct row *r = &rows[i];
        size_t lo = 0, hi = s->nruns;
        while (lo < hi) { /* the run's index */
            size_t mid = (lo + hi) / 2;
            if (ids[mid] < r->run_id)
                lo = mid + 1;
            else
                hi = mid;
        }
        h->pts[h->npts++] = (struct site_point){lo, r->value, r->n};
        if (i == a || r->variant != rows[i - 1].variant)
            h->lines[h->nlines++] = (struct site_line){(char *)r->variant, i - a, 0, NULL, 0};
        h->lines[h->nlines - 1].count++;
    }
    for (int k = 0; k < h->nlines; k++) {
        if (line_changes(s, h, &h->lines[k]))
            return -1;
        for (size_t j = 0; j < h->lines[k].ncps; j++) {
            const struct site_cp *c = &h->lines[k].cps[j];
            size_t at = c->at - h->lines[k].first;
            if (!h->last || at > h->last->at - h->last_line->first) {
                h->last = c;
                h->last_line = &h->lines[k];
            }
        }
    }
    return 0;
}

/* The index's order: open regressions (largest first), then histories with
 * a change point (largest latest change first), then the rest as read. */
static const struct site *g_site;

static int tier(const struct site_history *h) { return !h->last ? 2 : h->last->regression ? 0 : 1; }

static int cmp_order(const void *a, const void *b)
{
    const struct site_history *x = &g_site->h[*(const size_t *)a], *y = &g_site->h[*(const size_t *)b];
    int tx = tier(x), ty = tier(y);
    if (tx != ty)
        return tx - ty;
    double cx = x->last ? fabs(x->last->change) : 0, cy = y->last ? fabs(y->last->change) : 0;
    if (cx != cy)
        return cx > cy ? -1 : 1;
    size_t ix = *(const size_t *)a, iy = *(const size_t *)b;
    return (ix > iy) - (ix < iy);
}

int site_read(struct site *s, char **err)
{
    long long *ids = NULL;
    struct row *rows = NULL;
    size_t n = 0;
    int rc = read_runs(s, &ids, err);
    if (rc == 0 && data_fingerprint(s->db, s->fingerprint, &s->archives, err))
        rc = -1;
    if (rc == 0 && !(s->names = xcalloc(1, sizeof(struct intern))))
        rc = bd_fail(err, "out of memory");
    if (rc == 0)
        rc = read_points(s, s->names, &rows, &n, err);
    if (rc == 0) {
        g_runs = s->runs;
        g_run_ids = ids;
        g_nruns = s->nruns;
        if (n) /* a store without points leaves rows NULL, which qsort may not take */
            qsort(rows, n, sizeof *rows, cmp_row);
        size_t nh = 0;
        for (size_t i = 0; i < n; i++)
            nh += i == 0 || !same_history(&rows[i], &rows[i - 1]);
        s->h = xcalloc(nh ? nh : 1, sizeof *s->h);
        s->order = xmalloc((nh ? nh : 1) * sizeof *s->order);
        rc = s->h && s->order ? 0 : bd_fail(err, "out of memory");
        for (size_t i = 0, a = 0; rc == 0 && i < n; i++)
            if (i + 1 == n || !same_history(&rows[i + 1], &rows[i])) {
                s->order[s->nh] = s->nh;
                rc = make_history(s, &s->h[s->nh++], rows, a, i + 1, ids) ? bd_fail(err, "out of memory") : 0;
                a = i + 1;
            }
    }
    if (rc == 0) {
        g_site = s;
        qsort(s->order, s->nh, sizeof *s->order, cmp_order);
    }
    free(rows);
    free(ids);
    return rc;
}

void site_free(struct site *s)
{
    for (size_t i = 0; i < s->nruns; i++) {
        free(s->runs[i].name);
        free(s->runs[i].revision);
        free(s->runs[i].started_at);
        free(s->runs[i].plan);
        free(s->runs[i].host);
    }
    free(s->runs);
    for (size_t i = 0; s->h && i < s->nh; i++) {
        struct site_history *h = &s->h[i];
        for (int k = 0; k < h->nlines; k++)
            free(h->lines[k].cps);
        free(h->lines);
        free(h->pts);
        free(h->file);
        free(h->evals);
    }
    free(s->h);
    free(s->order);
    for (size_t i = 0; i < s->nevals; i++) {
        struct site_eval *e = &s->evals[i];
        free(e->query);
        free(e->plan);
        free(e->at);
        free(e->headline);
        free(e->outcome);
        free(e->params);
        free(e->file);
    }
    free(s->evals);
    if (s->names)
        intern_free(s->names);
    free(s->names);
}

char *site_history_title(const struct site_history *h)
{
    char *cell = display_params_path(h->params);
    char *t = bd_strdupf("%s%s on %s (plan %s, %s)", h->benchmark ? h->benchmark : "", cell ? cell : "",
                         h->host ? h->host : "", h->plan ? h->plan : "", h->metric ? h->metric : "");
    free(cell);
    return t;
}
