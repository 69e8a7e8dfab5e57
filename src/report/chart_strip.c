/* Dot strip: per group (a host, say) a strip per label (a cell) holding a
 * dot per row (a run's value), a tick at the strip's mean, and a dashed
 * line at the group's average; geometric means on a log axis. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/chart.h"
#include "report/display.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

struct strip {
    size_t *rows; /* evaluation rows of the strip */
    size_t n;
    char *label;
    double mean, lo, hi;
    size_t nv;
};

struct strips {
    struct chart_ctx *c;
    double *val;
    char *ok;
    struct axis ax;
    struct classes cl;
    struct band_ref br;
};

/* A group's strips, and its average. */
struct strip_group {
    const char *key, *title;
    const size_t *grows; /* the group's rows */
    size_t nrows;
    struct strip *st;
    size_t nst;
    double gmean;
    size_t gn;
};

static double tr(int lg, double v) { return lg ? log(v) : v; }
static double untr(int lg, double v) { return lg ? exp(v) : v; }

static int cmp_mean(const void *a, const void *b)
{
    const struct strip *x = a, *y = b;
    if (x->nv != y->nv)
        return x->nv ? -1 : 1;
    return (x->mean < y->mean) - (x->mean > y->mean);
}

static void legend(const struct strips *ss, const struct strip_group *sg, struct strbuf *sb, double *y)
{
    const struct chart_spec *s = ss->c->spec;
    struct legend l = {0};
    char buf[48], b0[48], b1[48];
    for (int q = 0; q < ss->cl.n; q++) {
        char *t = bd_strdupf("%s = %s", s->colour, ss->cl.names[q]);
        legend_add(&l, LEG_SHAPE, class_shape(&ss->cl, q), class_colour(&ss->cl, q), 1, t);
        free(t);
    }
    numfmt_sig(buf, sg->gmean, REPORT_DIGITS);
    char *t = bd_strdupf("average of %s: %s (%s mean of %zu values)", sg->title ? sg->title : "all",
                         sg->gn ? buf : "none", s->log ? "geometric" : "arithmetic", sg->gn);
    legend_add(&l, LEG_DASH, 0, NULL, 0, t);
    free(t);
    legend_add(&l, LEG_TEXT, 0, NULL, 0, "| each strip's mean");
    if (ss->br.has_band) {
        numfmt_sig(b0, ss->br.band[0], REPORT_DIGITS);
        numfmt_sig(b1, ss->br.band[1], REPORT_DIGITS);
        t = bd_strdupf("band [%s, %s]", b0, b1);
        legend_add(&l, LEG_BAND, 0, NULL, 0, t);
        free(t);
    }
    if (ss->br.has_ref) {
        numfmt_sig(buf, ss->br.ref, REPORT_DIGITS);
        t = bd_strdupf("line at %s", buf);
        legend_add(&l, LEG_LINE, 0, NULL, 0, t);
        free(t);
    }
    *y += legend_draw(sb, &l, 8, *y, CHART_W - 16);
    legend_free(&l);
}

/* Strip q at yc: a band behind every other one, the tick at its mean, its
 * dots (the marks), and, labelled, its label and numbers. */
static void strip_row(const struct strips *ss, struct strbuf *sb, const struct strip_group *sg, const struct strip *q,
                      size_t m, const struct row_layout *lay, double yc, int compact, const char *nums)
{
    const char *rl[] = {"value", ss->c->spec->value, NULL};
    double pitch = lay->pitch;
    if (m % 2 == 1 && !compact) /* zebra: strips apart at a glance */
        sb_printf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#000\" fill-opacity=\"0.04\"/>",
                  ss->ax.p0, yc - pitch / 2, ss->ax.p1 - ss->ax.p0, pitch);
    if (q->nv) {
        double x = axis_pos(&ss->ax, q->mean);
        sb_printf(sb, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"1.5\"/>", x,
                  x, yc - pitch * 0.45, yc + pitch * 0.45);
    }
    for (size_t d = 0; d < q->n; d++) {
        size_t i = q->rows[d];
        int ck = ss->cl.n ? ss->cl.of_row[i] : 0;
        mark_open(ss->c, sb, i, sg->key, ss->cl.n ? ss->cl.names[ck] : NULL, rl);
        double jit = compact ? 0 : ((double)(d % 5) - 2) * 1.6;
        if (ss->ok[i])
            svg_shape(sb, class_shape(&ss->cl, ck), axis_pos(&ss->ax, ss->val[i]), yc + jit, compact ? fmin(2.5, pitch / 2) : 3.2,
                      class_colour(&ss->cl, ck), 1);
        else
            svg_shape(sb, SHAPE_CIRCLE, ss->ax.p0 + 4, yc, 2, "#888888", 0);
        mark_close(sb);
    }
    if (!compact) {
        char *lf = text_fit(q->label, (int)(lay->labw / CHAR_W));
        svg_text(sb, 8, yc + 4, "start", "t", lf);
        svg_text(sb, CHART_W - 8 - lay->numw, yc + 4, "start", "t", nums);
        free(lf);
    }
}

/* "n 4, mean 1.02, max/min 1.1" of each strip of [a, b); malloc'd. */
static char **strip_numbers(const struct strips *ss, const struct strip_group *sg, size_t a, size_t b, int *lc,
                            int *nc)
{
    int lg = ss->c->spec->log;
    char **nums = xcalloc(b - a + 1, sizeof *nums);
    *lc = *nc = 0;
    for (size_t m = a; nums && m < b; m++) {
        const struct strip *q = &sg->st[m];
        char mb[48], sp[48];
        numfmt_sig(mb, q->mean, REPORT_DIGITS);
        numfmt_sig(sp, lg ? q->hi / q->lo : q->hi - q->lo, REPORT_DIGITS);
        nums[m - a] = q->nv ? bd_strdupf("n %zu, mean %s, %s %s", q->nv, mb, lg ? "max/min" : "range", sp)
                            : xstrdup("no values");
        int l = text_cols(q->label), w = text_cols(nums[m - a]);
        *lc = l > *lc ? l : *lc;
        *nc = w > *nc ? w : *nc;
    }
    return nums;
}

static int strip_panel(struct strips *ss, const struct strip_group *sg, int part, int parts)
{
    const struct chart_spec *s = ss->c->spec;
    size_t a, b, marks = 0;
    panel_range(sg->nst, part, &a, &b);
    size_t ns = b - a;
    for (size_t m = a; m < b; m++)
        marks += sg->st[m].n;
    struct panel *p = panel_new(ss->c->out);
    if (!p)
        return -1;
    struct strbuf *sb = &p->svg;
    double y = 4;
    y += panel_title(sb, sg->title, sg->nrows, sg->nrows == 1 ? "value" : "values", part, parts, y);
    int compact = ns > PANEL_LABELLED, lc = 0, nc = 0;
    if (part == 1)
        legend(ss, sg, sb, &y);
    char **nums = compact ? xcalloc(ns + 1, sizeof *nums) : strip_numbers(ss, sg, a, b, &lc, &nc);
    char *note = bd_strdupf("one strip per label (%zu here); hover a dot for its numbers", ns);
    struct row_layout lay = rows_layout(sb, &ss->ax, compact, lc, nc, ns, 3, 24, note ? note : "", &y);
    free(note);
    axis_ticks(&ss->ax, 0);
    double top = y + 6, bottom = top + (double)ns * lay.pitch;
    if (ss->br.has_band)
        svg_band(sb, axis_pos(&ss->ax, ss->br.band[0]), axis_pos(&ss->ax, ss->br.band[1]), top, bottom);
    char *unit = chart_unit(ss->c, sg->grows, sg->nrows);
    char *xl = bd_strdupf("%s%s%s%s%s", s->xlabel ? s->xlabel : s->value, s->log && !s->xlabel ? ", log scale" : "",
                          unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    free(unit);
    double axh = axis_draw_x(sb, &ss->ax, bottom + 4, top, xl ? xl : "");
    free(xl);
    if (ss->br.has_ref)
        svg_vline(sb, "ref", axis_pos(&ss->ax, ss->br.ref), top, bottom + 4);
    if (sg->gn)
        svg_vline(sb, "avg", axis_pos(&ss->ax, sg->gmean), top, bottom + 4);
    for (size_t m = 0; nums && m < ns; m++) {
        strip_row(ss, sb, sg, &sg->st[a + m], m, &lay, top + (double)m * lay.pitch + lay.pitch / 2, compact,
                  nums[m] ? nums[m] : "");
        free(nums[m]);
    }
    if (!nums)
        sb->failed = 1;
    free(nums);
    p->marks = marks;
    ss->c->out->marks += marks;
    p->h = bottom + 4 + axh + 6;
    return sb->failed ? -1 : 0;
}

/* Group k's strips: its rows by label, in order of first appearance (by
 * their mean with sort=value), each's mean and range, and the group's
 * average. Returns 0, or -1 when memory ran out. */
static int make_strips(struct strips *ss, const struct groups *g, int k, struct strip_group *sg)
{
    int lg = ss->c->spec->log;
    struct groups sp;
    groups_split(ss->c, g->rows[k], g->nrows[k], row_label, NULL, &sp);
    *sg = (struct strip_group){g->keys[k], g->titles[k], g->rows[k], g->nrows[k], NULL, (size_t)sp.n, NAN, 0};
    if (ss->c->out->oom || !(sg->st = xcalloc(sg->nst ? sg->nst : 1, sizeof *sg->st))) {
        groups_free(&sp);
        return -1;
    }
    double gsum = 0;
    for (size_t m = 0; m < sg->nst; m++) {
        struct strip *p = &sg->st[m];
        *p = (struct strip){sp.rows[m], sp.nrows[m], sp.keys[m], 0, INFINITY, -INFINITY, 0};
        sp.rows[m] = NULL;
        sp.keys[m] = NULL;
        for (size_t d = 0; d < p->n; d++) {
            size_t i = p->rows[d];
            if (!ss->ok[i])
                continue;
            p->mean += tr(lg, ss->val[i]);
            p->lo = fmin(p->lo, ss->val[i]);
            p->hi = fmax(p->hi, ss->val[i]);
            p->nv++;
            gsum += tr(lg, ss->val[i]);
            sg->gn++;
        }
        if (p->nv)
            p->mean = untr(lg, p->mean / (double)p->nv);
    }
    groups_free(&sp);
    if (ss->c->spec->sort == SORT_VALUE)
        qsort(sg->st, sg->nst, sizeof *sg->st, cmp_mean);
    sg->gmean = sg->gn ? untr(lg, gsum / (double)sg->gn) : NAN;
    return 0;
}

static void strips_free(struct strip_group *sg)
{
    for (size_t m = 0; sg->st && m < sg->nst; m++) {
        free(sg->st[m].rows);
        free(sg->st[m].label);
    }
    free(sg->st);
}

/* The values, and the axis over them, the reference and the band. */
static int read_values(struct strips *ss)
{
    const struct chart_spec *s = ss->c->spec;
    size_t n = report_nrows(ss->c->ev);
    struct axis probe = {.log = s->log};
    ss->val = xmalloc((n ? n : 1) * sizeof *ss->val);
    ss->ok = xcalloc(n ? n : 1, 1);
    if (!ss->val || !ss->ok)
        return -1;
    double vmin = INFINITY, vmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        ss->ok[i] = evaldata_num(report_cell(ss->c->ev, i, s->value), &ss->val[i]) && axis_ok(&probe, ss->val[i]);
        if (ss->ok[i]) {
            vmin = fmin(vmin, ss->val[i]);
            vmax = fmax(vmax, ss->val[i]);
        }
    }
    if (ss->br.has_ref) {
        vmin = fmin(vmin, ss->br.ref);
        vmax = fmax(vmax, ss->br.ref);
    }
    if (ss->br.has_band) {
        vmin = fmin(vmin, ss->br.band[0]);
        vmax = fmax(vmax, ss->br.band[1]);
    }
    axis_fit(&ss->ax, vmin, vmax, s->log);
    return 0;
}

int chart_strip(struct chart_ctx *c)
{
    struct strips ss = {.c = c};
    if (chart_band_ref(c, NAN, &ss.br))
        return -1;
    int rc = read_values(&ss);
    if (rc == 0) {
        roles_add(c->out, "value", c->spec->value);
        roles_add(c->out, "class", c->spec->colour);
        classes_make(c, &ss.cl);
        struct groups g;
        groups_make(c, &g);
        for (int k = 0; rc == 0 && k < g.n; k++) {
            struct strip_group sg;
            rc = make_strips(&ss, &g, k, &sg);
            int parts = panel_parts(sg.nst);
            for (int part = 1; rc == 0 && part <= parts; part++)
                rc = strip_panel(&ss, &sg, part, parts);
            strips_free(&sg);
        }
        groups_free(&g);
        classes_free(&ss.cl);
    }
    free(ss.val);
    free(ss.ok);
    return rc ? bd_fail(c->err, "out of memory") : 0;
}
