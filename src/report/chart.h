#ifndef BENCHDB_REPORT_CHART_H
#define BENCHDB_REPORT_CHART_H
#include <stddef.h>

#include "report/chart_spec.h"
#include "report/evaldata.h"
#include "report/svg.h"
#include "util/strbuf.h"

/* A chart is drawn as panels, each an SVG of CHART_W by h pixels: one per
 * group (chart option group=), a group of more than PANEL_MAX_MARKS rows
 * continuing in further panels. Every row of the evaluation is exactly one
 * mark: an element of class "mark" whose data-row attribute is the row's
 * index and whose data-ROLE attributes hold the values it was drawn from,
 * exactly (the roles and their columns are in the chart's data-roles). */
#define PANEL_MAX_MARKS 500
/* Up to this many rows in a panel every row is labelled; above, the rows
 * are drawn compactly and their labels are in the marks' tooltips. */
#define PANEL_LABELLED 100

struct panel {
    struct strbuf svg; /* the panel's content, without the <svg> element */
    double h;
    size_t marks;
};

struct chart_out {
    struct panel *v;
    int n;
    char **notes; /* warnings listed under the chart */
    int nnotes;
    struct strbuf roles; /* JSON: role -> column name(s) */
    size_t marks;
};

/* What a chart is drawn from: the spec, the evaluation whose rows it draws,
 * and the evaluation whose parameters band= and ref= may name (the page's
 * own; the same unless the chart comes from a companion query). */
struct chart_ctx {
    const struct chart_spec *spec;
    const struct report_eval *ev;
    const struct report_eval *params_ev;
    struct chart_out *out;
    char **err;
};

/* Draws the chart of spec (any kind but table). Returns 0, or -1 with *err
 * set (a column the spec names is not among the rows', a parameter it names
 * is not the evaluation's). */
int chart_draw(const struct chart_spec *spec, const struct report_eval *ev, const struct report_eval *params_ev,
               struct chart_out *out, char **err);
void chart_out_free(struct chart_out *out);

/* ---- shared by the kinds (chart.c) ---- */

/* Rows split by the group columns, groups in order of first appearance,
 * rows in evaluation order within a group. */
struct groups {
    int n;
    char **keys;      /* the group's values exactly, joined by " · " (NULL: no group=) */
    char **titles;    /* the same as a reader sees them (a JSON object's values joined by '/') */
    size_t **rows;
    size_t *nrows;
};
void groups_make(const struct chart_ctx *c, struct groups *g);
/* The given rows split by key(c, row) (malloc'd text), the same way; a
 * group's title is title(c, its first row), or its key when title is NULL. */
void groups_split(const struct chart_ctx *c, const size_t *rows, size_t n,
                  char *(*key)(const struct chart_ctx *, size_t), char *(*title)(const struct chart_ctx *, size_t),
                  struct groups *g);
void groups_free(struct groups *g);

/* The class of every row (chart option colour=): index into names, in order
 * of first appearance; the ninth and later classes share "other". */
struct classes {
    int n;
    char **names;
    int *of_row;
};
void classes_make(const struct chart_ctx *c, struct classes *cl);
void classes_free(struct classes *cl);
const char *class_colour(const struct classes *cl, int k);
enum shape class_shape(int k);

struct panel *panel_new(struct chart_out *out);
/* The row's label: its label columns' values joined by spaces, a JSON
 * object's values joined by '/'; malloc'd. */
char *row_label(const struct chart_ctx *c, size_t i);
/* Opens a mark: <g class="mark" data-row=.. data-group=.. [data-class=..]
 * and data-ROLE for each role/column pair (NULL-terminated), then <title>
 * with the row's every column. */
void mark_open(const struct chart_ctx *c, struct strbuf *sb, size_t i, const char *group, const char *cls,
               const char *const *roles);
void mark_close(struct strbuf *sb);
/* Records role -> column in out->roles. */
void roles_add(struct chart_out *out, const char *role, const char *col);
/* A number from a chart option: a literal, or a parameter of the
 * evaluation. Returns 0, or -1 with *err set. */
int chart_number(const struct chart_ctx *c, const char *opt, const char *text, double *out);
/* The panel title: "KEY — N WHAT" with "(part k of m)"; drawn at y, fit to
 * the width; returns the height used. */
double panel_title(struct strbuf *sb, const char *key, size_t n, const char *what, int part, int parts, double y);
/* The unit shown on an axis: the distinct values of the unit column among
 * the rows, joined by ", " (NULL without unit=); malloc'd. */
char *chart_unit(const struct chart_ctx *c, const size_t *rows, size_t n);
void notes_add(struct chart_out *out, const char *text);

int chart_forest(struct chart_ctx *c);
int chart_series(struct chart_ctx *c);
int chart_strip(struct chart_ctx *c);
int chart_bar(struct chart_ctx *c);

#endif
