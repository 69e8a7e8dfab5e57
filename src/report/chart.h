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
    int oom; /* memory ran out somewhere: chart_draw fails */
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
 * rows in evaluation order within a group. When memory runs out: no group,
 * and c->out->oom (chart_draw fails). */
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
enum shape class_shape(const struct classes *cl, int k);

struct panel *panel_new(struct chart_out *out);
/* The row's label: its label columns' values joined by spaces, a JSON
 * object's values joined by '/'; malloc'd. */
char *row_label(const struct chart_ctx *c, size_t i);
/* The same with the first ncols label columns only. */
char *row_label_n(const struct chart_ctx *c, size_t i, int ncols);
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

/* Where a row chart (forest, strip, bar) puts things across a panel. */
struct row_layout {
    double pitch;      /* height of a row */
    double labw, numw; /* widths of the label and numbers columns (0 when compact) */
};
#define LABEL_COLS 56 /* the widest label column, in characters (longer labels are cut) */
/* Labelled (not compact): the label column (labcols characters, at most
 * LABEL_COLS) left of the plot, the numbers column (numcols) right of it,
 * a row per LINE_H. Compact: the plot from 16 px to `right` px short of the
 * edge, `note` above it (*y moves past it), rows of 2 to 8 px by count but
 * at least min_pitch. Sets ax->p0 and ax->p1. */
struct row_layout rows_layout(struct strbuf *sb, struct axis *ax, int compact, int labcols, int numcols, size_t n,
                              double min_pitch, double right, const char *note, double *y);
/* The band= and ref= options of a row chart: each a number or a parameter
 * of the evaluation. has_band / has_ref are 0 when absent or off the axis
 * (a log axis needs values > 0); without ref=, the ref is dref (NAN: none);
 * ref=none: none. Returns 0, or -1 with *err set. */
struct band_ref {
    double band[2], ref;
    int has_band, has_ref;
};
int chart_band_ref(const struct chart_ctx *c, double dref, struct band_ref *br);

/* How many panels n rows take (PANEL_MAX_MARKS each, at least one), and
 * the rows [*a, *b) of panel `part` (1-based). */
int panel_parts(size_t n);
void panel_range(size_t n, int part, size_t *a, size_t *b);

int chart_forest(struct chart_ctx *c);
int chart_series(struct chart_ctx *c);
int chart_strip(struct chart_ctx *c);
int chart_bar(struct chart_ctx *c);

#endif
