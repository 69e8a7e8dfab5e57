#ifndef BENCHDB_REPORT_FOREST_H
#define BENCHDB_REPORT_FOREST_H
/* What the forest chart's files share: chart_forest.c reads the rows and
 * fits the axis, forest_panel.c lays a panel out. */
#include <stddef.h>

#include "report/chart.h"

struct frow {
    size_t i;
    double e, lo, hi;
    int has_e, has_ci;
    int dir;     /* +1 interval above ref, -1 below, 0 neither (or no ref) */
    int summary; /* drawn as a diamond after the others */
    int out;     /* the estimate lies beyond a clipped axis: -1 left of it, +1 right */
};

struct forest {
    struct chart_ctx *c;
    struct frow *r;
    struct classes cl;
    struct axis ax;
    double band[2], ref;
    int has_band, has_ref, any_ci;
    const char *above, *below;
    int clipped;  /* the axis leaves out extreme rows (linear axes): those are drawn at its edge */
    size_t nout;  /* how many, over every group */
};

void forest_fmt(char *buf, double x);
/* "estimate [lo, hi] word", or "no estimate"; malloc'd. */
char *forest_numbers_text(const struct forest *f, const struct frow *r);
void forest_hline(struct strbuf *sb, double x0, double x1, double y, const char *colour, double w, double op);
/* One line per class of the group's rows: how many, in the band, excluding ref; returns the height. */
double forest_class_lines(struct forest *f, struct strbuf *sb, struct frow **rows, size_t n, double y);
/* The legend; nout: how many of the group's rows lie beyond a clipped axis. */
double forest_legend(struct forest *f, struct strbuf *sb, double y, int compact, size_t nout);
/* Row r's mark at height yc (pitch: its row's height). */
void forest_draw_mark(struct forest *f, struct strbuf *sb, const struct frow *r, const char *key, double yc,
                      double pitch, int compact);
/* One panel of a group: rows[0..n) (part of parts), its summary rows,
 * all: the group's rows (for the counts). Returns 0, or -1 when memory ran out. */
struct forest_panel {
    const char *key, *title;
    struct frow **rows, **sums, **all;
    size_t n, nsum, nall;
    int part, parts;
};
int forest_panel_draw(struct forest *f, const struct forest_panel *fp);

#endif
