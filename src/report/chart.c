/* What the chart kinds share: panels, groups, classes, marks, checks. */
#include "report/chart.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/display.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

struct panel *panel_new(struct chart_out *out)
{
    struct panel *grown = xreallocarray(out->v, (size_t)(out->n + 1), sizeof *out->v);
    if (!grown)
        return NULL;
    out->v = grown;
    struct panel *p = &out->v[out->n++];
    memset(p, 0, sizeof *p);
    return p;
}

void chart_out_free(struct chart_out *out)
{
    for (int i = 0; i < out->n; i++)
        sb_free(&out->v[i].svg);
    free(out->v);
    for (int i = 0; i < out->nnotes; i++)
        free(out->notes[i]);
    free(out->notes);
    sb_free(&out->roles);
    memset(out, 0, sizeof *out);
}

void notes_add(struct chart_out *out, const char *text)
{
    for (int i = 0; i < out->nnotes; i++)
        if (strcmp(out->notes[i], text) == 0)
            return;
    char **grown = xreallocarray(out->notes, (size_t)(out->nnotes + 1), sizeof *out->notes);
    char *copy = xstrdup(text);
    if (grown)
        out->notes = grown;
    if (!grown || !copy) {
        free(copy);
        out->oom = 1;
        return;
    }
    out->notes[out->nnotes++] = copy;
}

void roles_add(struct chart_out *out, const char *role, const char *col)
{
    if (!col)
        return;
    sb_puts(&out->roles, out->roles.len ? ", " : "{");
    sb_json_string(&out->roles, role, strlen(role));
    sb_puts(&out->roles, ": ");
    sb_json_string(&out->roles, col, strlen(col));
}

static char *cols_label(const struct chart_ctx *c, size_t i, char *const *cols, int ncols, const char *sep);

/* ---- groups ---- */

struct keyed {
    const char *key;
    size_t row;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

static char *group_key(const struct chart_ctx *c, size_t i)
{
    struct strbuf sb = {0};
    for (int k = 0; k < c->spec->ngroup; k++) {
        char *t = evaldata_exact(report_cell(c->ev, i, c->spec->group[k]));
        if (t)
            sb_printf(&sb, "%s%s", k ? " \xc2\xb7 " : "", t);
        else
            sb.failed = 1;
        free(t);
    }
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

static char *group_title(const struct chart_ctx *c, size_t i)
{
    return cols_label(c, i, c->spec->group, c->spec->ngroup, " \xc2\xb7 ");
}

struct run_start {
    size_t first; /* the run's first row (rows ascend within a run) */
    size_t at;    /* where the run starts in the sorted keys */
};

static int cmp_first(const void *a, const void *b)
{
    const struct run_start *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* Allocates g's arrays for ng groups (zeroed); 0, or -1 (g left empty). */
static int groups_alloc(struct groups *g, size_t ng)
{
    memset(g, 0, sizeof *g);
    g->keys = xcalloc(ng ? ng : 1, sizeof *g->keys);
    g->titles = xcalloc(ng ? ng : 1, sizeof *g->titles);
    g->rows = xcalloc(ng ? ng : 1, sizeof *g->rows);
    g->nrows = xcalloc(ng ? ng : 1, sizeof *g->nrows);
    if (g->keys && g->titles && g->rows && g->nrows)
        return 0;
    groups_free(g);
    return -1;
}

/* The groups of k[0..n) (sorted by key): runs of equal keys, in the order
 * of the row each starts with. Returns 0, or -1 when memory ran out. */
static int groups_of(const struct chart_ctx *c, const struct keyed *k, size_t n,
                     char *(*title)(const struct chart_ctx *, size_t), struct groups *g)
{
    size_t ng = 0;
    for (size_t i = 0; i < n; i++)
        ng += i == 0 || strcmp(k[i].key, k[i - 1].key) != 0;
    struct run_start *rs = xmalloc((ng + 1) * sizeof *rs);
    if (!rs || groups_alloc(g, ng)) {
        free(rs);
        return -1;
    }
    size_t j = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0)
            rs[j++] = (struct run_start){k[i].row, i};
    qsort(rs, ng, sizeof *rs, cmp_first);
    int rc = 0;
    for (size_t i = 0; i < ng && rc == 0; i++) {
        size_t a = rs[i].at, b = a + 1;
        while (b < n && strcmp(k[b].key, k[a].key) == 0)
            b++;
        g->n++;
        g->keys[i] = xstrdup(k[a].key);
        g->titles[i] = title ? title(c, k[a].row) : xstrdup(k[a].key);
        g->nrows[i] = b - a;
        g->rows[i] = xmalloc((b - a) * sizeof **g->rows);
        rc = g->keys[i] && g->titles[i] && g->rows[i] ? 0 : -1;
        for (size_t m = a; rc == 0 && m < b; m++)
            g->rows[i][m - a] = k[m].row;
    }
    free(rs);
    if (rc)
        groups_free(g);
    return rc;
}

void groups_split(const struct chart_ctx *c, const size_t *rows, size_t n,
                  char *(*key)(const struct chart_ctx *, size_t), char *(*title)(const struct chart_ctx *, size_t),
                  struct groups *g)
{
    memset(g, 0, sizeof *g);
    struct keyed *k = xmalloc((n ? n : 1) * sizeof *k);
    size_t made = 0;
    int rc = k ? 0 : -1;
    for (; rc == 0 && made < n; made++) {
        k[made] = (struct keyed){key(c, rows[made]), rows[made]};
        rc = k[made].key ? 0 : -1;
    }
    if (rc == 0) {
        qsort(k, n, sizeof *k, cmp_keyed);
        rc = groups_of(c, k, n, title, g);
    }
    for (size_t i = 0; k && i < made; i++)
        free((char *)k[i].key);
    free(k);
    if (rc) /* no groups: nothing is drawn, and chart_draw says why */
        c->out->oom = 1;
}

void groups_make(const struct chart_ctx *c, struct groups *g)
{
    size_t n = report_nrows(c->ev);
    size_t *all = xmalloc((n ? n : 1) * sizeof *all);
    if (!all) {
        memset(g, 0, sizeof *g);
        c->out->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        all[i] = i;
    if (c->spec->ngroup && n) {
        groups_split(c, all, n, group_key, group_title, g);
        free(all);
        return;
    }
    if (groups_alloc(g, 1)) {
        free(all);
        c->out->oom = 1;
        return;
    }
    g->n = 1;
    g->rows[0] = all;
    g->nrows[0] = n;
}

void groups_free(struct groups *g)
{
    for (int i = 0; i < g->n; i++) {
        free(g->keys ? g->keys[i] : NULL);
        free(g->titles ? g->titles[i] : NULL);
        free(g->rows ? g->rows[i] : NULL);
    }
    free(g->keys);
    free(g->titles);
    free(g->rows);
    free(g->nrows);
    memset(g, 0, sizeof *g);
}

/* ---- classes ---- */

void classes_make(const struct chart_ctx *c, struct classes *cl)
{
    memset(cl, 0, sizeof *cl);
    size_t n = report_nrows(c->ev);
    cl->of_row = xcalloc(n ? n : 1, sizeof *cl->of_row);
    if (!cl->of_row) {
        c->out->oom = 1;
        return; /* of_row NULL with n 0: no class is read */
    }
    if (!c->spec->colour)
        return;
    for (size_t i = 0; i < n; i++) {
        char *t = evaldata_exact(report_cell(c->ev, i, c->spec->colour));
        int k;
        for (k = 0; t && k < cl->n; k++)
            if (strcmp(cl->names[k], t) == 0)
                break;
        if (!t) {
            c->out->oom = 1;
            k = 0;
        } else if (k == cl->n && cl->n == PALETTE_N) {
            char *other = xstrdup("other");
            k = PALETTE_N - 1;
            if (other) {
                free(cl->names[k]);
                cl->names[k] = other;
            } else {
                c->out->oom = 1;
            }
        } else if (k == cl->n) {
            char **grown = xreallocarray(cl->names, (size_t)(cl->n + 1), sizeof *cl->names);
            if (grown) {
                cl->names = grown;
                cl->names[cl->n++] = t;
                t = NULL;
            } else {
                c->out->oom = 1;
                k = 0;
            }
        }
        free(t);
        cl->of_row[i] = cl->n ? k : 0;
    }
}

void classes_free(struct classes *cl)
{
    for (int i = 0; i < cl->n; i++)
        free(cl->names[i]);
    free(cl->names);
    free(cl->of_row);
    memset(cl, 0, sizeof *cl);
}

/* A class named by a verdict keeps its meaning's colour and shape on every
 * page (docs/report.md, "Colours"): slower or worse in vermilion pointing
 * up, faster or better in blue pointing down, no significant change in
 * grey; other classes take the palette in order of first appearance. */
static const struct {
    const char *name;
    int colour; /* palette index, or -1 for grey */
    enum shape shape;
} verdict_style[] = {
    {"slower", 5, SHAPE_TRIANGLE},        {"worse", 5, SHAPE_TRIANGLE},        {"regression", 5, SHAPE_TRIANGLE},
    {"regressed", 5, SHAPE_TRIANGLE},     {"faster", 0, SHAPE_TRIANGLE_DOWN},  {"better", 0, SHAPE_TRIANGLE_DOWN},
    {"improvement", 0, SHAPE_TRIANGLE_DOWN}, {"~", -1, SHAPE_CIRCLE},         {"same", -1, SHAPE_CIRCLE},
};

static int verdict_of(const struct classes *cl, int k)
{
    if (!cl || k < 0 || k >= cl->n)
        return -1;
    for (size_t v = 0; v < sizeof verdict_style / sizeof verdict_style[0]; v++)
        if (strcmp(cl->names[k], verdict_style[v].name) == 0)
            return (int)v;
    return -1;
}

const char *class_colour(const struct classes *cl, int k)
{
    int v = verdict_of(cl, k);
    if (v >= 0)
        return verdict_style[v].colour < 0 ? "#888888" : palette_colour(verdict_style[v].colour);
    return cl->n ? palette_colour(k) : palette_colour(0);
}

enum shape class_shape(const struct classes *cl, int k)
{
    int v = verdict_of(cl, k);
    return v >= 0 ? verdict_style[v].shape : (enum shape)(k % SHAPE_N);
}

/* ---- marks ---- */

static char *cols_label(const struct chart_ctx *c, size_t i, char *const *cols, int ncols, const char *sep)
{
    struct strbuf sb = {0};
    for (int k = 0; k < ncols; k++) {
        json_t *v = report_cell(c->ev, i, cols[k]);
        json_t *obj = NULL;
        if (json_is_string(v) && json_string_value(v)[0] == '{')
            obj = json_loads(json_string_value(v), 0, NULL);
        struct strbuf part = {0};
        int joined = 0; /* a cell's parameters follow its benchmark as Go names them */
        if (json_is_object(obj)) {
            char *t = display_params_path(json_string_value(v));
            joined = sb.len && t && (t[0] == '/' || t[0] == '-');
            if (t)
                sb_puts(&part, t);
            part.failed |= !t;
            free(t);
        } else if (json_is_string(v) && strcmp(cols[k], "variant") == 0 &&
                   strcmp(json_string_value(v), "default") == 0) {
            /* the variant of runs without variants: nothing to tell apart */
        } else {
            char *t = evaldata_show(v, REPORT_DIGITS);
            if (t)
                sb_puts(&part, t);
            part.failed |= !t;
            free(t);
        }
        json_decref(obj);
        if (part.len) /* a null (or empty) value adds nothing, not even a separator */
            sb_printf(&sb, "%s%s", sb.len && !joined ? sep : "", part.buf);
        sb.failed |= part.failed;
        sb_free(&part);
    }
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

char *row_label(const struct chart_ctx *c, size_t i) { return cols_label(c, i, c->spec->label, c->spec->nlabel, " "); }

char *row_label_n(const struct chart_ctx *c, size_t i, int ncols)
{
    return cols_label(c, i, c->spec->label, ncols < c->spec->nlabel ? ncols : c->spec->nlabel, " ");
}

static void attr(struct strbuf *sb, const char *name, const char *value)
{
    sb_printf(sb, " data-%s=\"", name);
    svg_esc(sb, value);
    sb_putc(sb, '"');
}

void mark_open(const struct chart_ctx *c, struct strbuf *sb, size_t i, const char *group, const char *cls,
               const char *const *roles)
{
    sb_printf(sb, "<g class=\"mark\" data-row=\"%zu\"", i);
    if (group)
        attr(sb, "group", group);
    if (cls)
        attr(sb, "class", cls);
    for (int k = 0; roles && roles[k]; k += 2) {
        if (!roles[k + 1])
            continue;
        char *t = evaldata_exact(report_cell(c->ev, i, roles[k + 1]));
        attr(sb, roles[k], t);
        free(t);
    }
    sb_puts(sb, "><title>");
    json_t *row = json_array_get(c->ev->rows, i);
    const char *key;
    json_t *v;
    int first = 1;
    json_object_foreach(row, key, v) {
        if (json_is_null(v))
            continue; /* the tooltip names what there is */
        char *t = evaldata_show(v, REPORT_DIGITS);
        if (!t) {
            sb->failed = 1;
            continue;
        }
        if (!first)
            sb_putc(sb, '\n');
        svg_esc(sb, key);
        sb_puts(sb, ": ");
        svg_esc(sb, t);
        free(t);
        first = 0;
    }
    sb_puts(sb, "</title>");
}

void mark_close(struct strbuf *sb) { sb_puts(sb, "</g>"); }

/* "evaluation 3 (placement-rule)", or "query NAME" before it is recorded. */
static char *chart_who(const struct report_eval *ev)
{
    return ev->id ? bd_strdupf("evaluation %lld (%s)", ev->id, ev->query_name) : bd_strdupf("query %s", ev->query_name);
}

int chart_number(const struct chart_ctx *c, const char *opt, const char *text, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end != text && !*end && !errno && isfinite(x)) {
        *out = x;
        return 0;
    }
    json_t *v = json_object_get(c->params_ev->params, text);
    if (!v)
        v = json_object_get(c->ev->params, text);
    if (v && evaldata_num(v, out))
        return 0;
    char *who = chart_who(c->params_ev);
    bd_fail(c->err, "%s: chart: %s: '%s' is neither a number nor a numeric parameter of the evaluation", who, opt,
            text);
    free(who);
    return -1;
}

double panel_title(struct strbuf *sb, const char *key, size_t n, const char *what, int part, int parts, double y)
{
    struct strbuf t = {0};
    if (key && *key)
        sb_printf(&t, "%s \xe2\x80\x94 ", key);
    sb_printf(&t, "%zu %s", n, what);
    if (parts > 1)
        sb_printf(&t, " (part %d of %d)", part, parts);
    char *fit = text_fit(xsb_text(&t), (int)((CHART_W - 16) / TITLE_CHAR_W));
    svg_text(sb, 8, y + 14, "start", "tt", fit);
    free(fit);
    sb_free(&t);
    return 22;
}

char *chart_unit(const struct chart_ctx *c, const size_t *rows, size_t n)
{
    if (!c->spec->unit)
        return NULL;
    struct strbuf sb = {0};
    int count = 0;
    for (size_t i = 0; i < n && count < 4; i++) {
        char *t = evaldata_show(report_cell(c->ev, rows[i], c->spec->unit), REPORT_DIGITS);
        if (!t)
            break; /* memory ran out: the axis is labelled without more units */
        if (*t) {
            int seen = 0;
            const char *p = sb.buf;
            size_t tl = strlen(t);
            while (p && *p) {
                const char *e = strstr(p, ", ");
                size_t len = e ? (size_t)(e - p) : strlen(p);
                seen |= len == tl && strncmp(p, t, tl) == 0;
                p = e ? e + 2 : NULL;
            }
            if (!seen) {
                sb_printf(&sb, "%s%s", sb.len ? ", " : "", t);
                count++;
            }
        }
        free(t);
    }
    if (!sb.len) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

/* ---- dispatch ---- */

static int check_col(const struct chart_ctx *c, const char *opt, const char *col)
{
    if (!col || report_has_col(c->ev, col))
        return 0;
    struct strbuf names = {0};
    for (int i = 0; i < c->ev->ncol; i++)
        sb_printf(&names, "%s%s", i ? ", " : "", c->ev->cols[i]);
    char *who = chart_who(c->ev);
    bd_fail(c->err, "%s: chart: %s=%s: no such column (its columns: %s)", who, opt, col, xsb_text(&names));
    free(who);
    sb_free(&names);
    return -1;
}

int chart_draw(const struct chart_spec *spec, const struct report_eval *ev, const struct report_eval *params_ev,
               struct chart_out *out, char **err)
{
    memset(out, 0, sizeof *out);
    struct chart_ctx c = {spec, ev, params_ev, out, err};
    const struct { const char *opt, *col; } cols[] = {
        {"colour", spec->colour}, {"estimate", spec->estimate}, {"lo", spec->lo},       {"hi", spec->hi},
        {"x", spec->x},           {"y", spec->y},               {"value", spec->value}, {"change", spec->change},
        {"revision", spec->revision}, {"alert", spec->alert},   {"summary", spec->summary}, {"note", spec->note},
        {"line", spec->line_col}, {"unit", spec->unit},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        if (check_col(&c, cols[i].opt, cols[i].col))
            return -1;
    for (int i = 0; i < spec->ngroup; i++)
        if (check_col(&c, "group", spec->group[i]))
            return -1;
    for (int i = 0; i < spec->nlabel; i++)
        if (check_col(&c, "label", spec->label[i]))
            return -1;
    if (spec->ngroup) { /* a mark's data-group: the group columns' exact values joined by " · " */
        sb_puts(&out->roles, "{\"group\": [");
        for (int i = 0; i < spec->ngroup; i++) {
            if (i)
                sb_puts(&out->roles, ", ");
            sb_json_string(&out->roles, spec->group[i], strlen(spec->group[i]));
        }
        sb_putc(&out->roles, ']');
    }
    int rc;
    switch (spec->kind) {
    case CHART_FOREST: rc = chart_forest(&c); break;
    case CHART_SERIES: rc = chart_series(&c); break;
    case CHART_STRIP: rc = chart_strip(&c); break;
    case CHART_BAR: rc = chart_bar(&c); break;
    default: rc = bd_fail(err, "chart: a table is not drawn");
    }
    if (out->roles.len)
        sb_putc(&out->roles, '}');
    else
        sb_puts(&out->roles, "{}");
    for (int i = 0; rc == 0 && i < out->n; i++)
        out->oom |= out->v[i].svg.failed;
    if (rc == 0 && (out->oom || out->roles.failed))
        rc = bd_fail(err, "out of memory");
    return rc;
}

struct row_layout rows_layout(struct strbuf *sb, struct axis *ax, int compact, int labcols, int numcols, size_t n,
                              double min_pitch, double right, const char *note, double *y)
{
    struct row_layout l = {0};
    if (!compact) {
        l.labw = (labcols > LABEL_COLS ? LABEL_COLS : labcols) * CHAR_W;
        l.numw = numcols * CHAR_W;
        ax->p0 = 8 + l.labw + 14;
        ax->p1 = CHART_W - 8 - l.numw - 14;
        l.pitch = LINE_H;
        return l;
    }
    ax->p0 = 16;
    ax->p1 = CHART_W - right;
    l.pitch = fmax(min_pitch, fmin(8, 900.0 / (double)(n ? n : 1)));
    svg_text(sb, 8, *y + 12, "start", "tm", note);
    *y += 18;
    return l;
}

int panel_parts(size_t n) { return n ? (int)((n + PANEL_MAX_MARKS - 1) / PANEL_MAX_MARKS) : 1; }

void panel_range(size_t n, int part, size_t *a, size_t *b)
{
    *a = (size_t)(part - 1) * PANEL_MAX_MARKS;
    *b = *a + PANEL_MAX_MARKS < n ? *a + PANEL_MAX_MARKS : n;
}

int chart_band_ref(const struct chart_ctx *c, double dref, struct band_ref *br)
{
    const struct chart_spec *s = c->spec;
    struct axis probe = {.log = s->log};
    memset(br, 0, sizeof *br);
    if (s->band[0]) {
        if (chart_number(c, "band", s->band[0], &br->band[0]) || chart_number(c, "band", s->band[1], &br->band[1]))
            return -1;
        br->has_band = axis_ok(&probe, br->band[0]) && axis_ok(&probe, br->band[1]);
    }
    br->ref = dref;
    if (s->ref && strcmp(s->ref, "none") == 0)
        br->ref = NAN;
    else if (s->ref && chart_number(c, "ref", s->ref, &br->ref))
        return -1;
    br->has_ref = axis_ok(&probe, br->ref);
    return 0;
}
