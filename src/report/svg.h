#ifndef BENCHDB_REPORT_SVG_H
#define BENCHDB_REPORT_SVG_H
#include "util/strbuf.h"

/* Drawing SVG as text: escaping, text widths, axes with ticks, the
 * palette and marker shapes, legends. Every chart text is set in one
 * monospace font (DejaVu Sans Mono where installed), so its width is
 * known in advance and labels are placed so that they never overlap. */

#define CHART_W 960.0    /* width of every chart panel, px */
#define FONT_PX 11.0
#define CHAR_W 6.7       /* width of one character at FONT_PX (0.602 em, rounded up) */
#define TITLE_CHAR_W 7.4 /* at the 12 px of panel titles */
#define LINE_H 16.0

/* The CSS of chart text and lines: in the page's <style>, or in a lone SVG. */
extern const char svg_css[];

/* XML-escaped text (&, <, >, ", '). s NULL (a text that could not be
 * made) marks sb failed. */
void svg_esc(struct strbuf *sb, const char *s);
/* A coordinate: one decimal, no trailing ".0". */
void svg_num(struct strbuf *sb, double x);
/* Display width of UTF-8 text in character cells (wide scripts count 2). */
int text_cols(const char *s);
/* s cut to at most maxcols cells, ending in "…" when cut; malloc'd
 * (NULL when memory ran out). */
char *text_fit(const char *s, int maxcols);
/* <text> at (x, y) with anchor start|middle|end and a class. */
void svg_text(struct strbuf *sb, double x, double y, const char *anchor, const char *cls, const char *text);

/* A value axis: data range to pixel range, linear or logarithmic. */
struct axis {
    int log;
    double lo, hi;     /* data range */
    double p0, p1;     /* pixel range (p1 < p0 for a vertical axis) */
    double ticks[40];
    int nt;
};
/* Sets the range to cover [vmin, vmax] with a margin; for a log axis the
 * values must be > 0. */
void axis_fit(struct axis *a, double vmin, double vmax, int log);
double axis_pos(const struct axis *a, double v);
/* Chooses ticks whose labels (horizontal, `digits` significant) leave room
 * between them along the axis; vertical axes space them by LINE_H. */
void axis_ticks(struct axis *a, int vertical);
/* A horizontal axis at y from p0 to p1: line, ticks, labels, label below;
 * grid lines up to y_top when y_top < y. Returns the height used. */
double axis_draw_x(struct strbuf *sb, const struct axis *a, double y, double y_top, const char *label);
/* The same with the ticks' labels given (times, names), one per tick. */
double axis_draw_x_labelled(struct strbuf *sb, const struct axis *a, double y, double y_top, const char *label,
                            const char *const *ticks);
/* A vertical axis at x: ticks and labels to its left, label above. */
void axis_draw_y(struct strbuf *sb, const struct axis *a, double x, double x_right, const char *label);
/* Whether v is inside the axis range (finite, > 0 on a log axis). */
int axis_ok(const struct axis *a, double v);

/* Classes of marks: a colour from the Okabe-Ito palette (safe for colour
 * blindness) and a shape, so that greyscale prints keep them apart. */
#define PALETTE_N 8
const char *palette_colour(int k);
enum shape { SHAPE_CIRCLE, SHAPE_SQUARE, SHAPE_TRIANGLE, SHAPE_DIAMOND, SHAPE_TRIANGLE_DOWN, SHAPE_N,
             SHAPE_CROSS /* not a class's: a missed regression, drawn as an x in a ring */ };
/* A marker centred at (cx, cy) of radius r; filled or hollow (white inside). */
void svg_shape(struct strbuf *sb, enum shape s, double cx, double cy, double r, const char *colour, int filled);

/* A legend: entries laid out left to right, wrapping at the width. */
enum legend_kind { LEG_SHAPE, LEG_BAND, LEG_LINE, LEG_DASH, LEG_DOT, LEG_TEXT };
struct legend_entry {
    enum legend_kind kind;
    enum shape shape;
    const char *colour;
    int filled;
    char *text;
};
struct legend {
    struct legend_entry *v;
    int n;
    int failed; /* an entry could not be added: legend_draw marks its buffer failed */
};
void legend_add(struct legend *l, enum legend_kind kind, enum shape shape, const char *colour, int filled,
                const char *text);
/* Draws it from (x, y) (top) within width; returns the height used. */
double legend_draw(struct strbuf *sb, const struct legend *l, double x, double y, double width);
void legend_free(struct legend *l);

/* The shaded band between x0 and x1, from y0 down to y1. */
void svg_band(struct strbuf *sb, double x0, double x1, double y0, double y1);
/* A vertical line of class cls (ref, avg, chg, grid...). */
void svg_vline(struct strbuf *sb, const char *cls, double x, double y0, double y1);

/* Lines of text wrapped at maxcols cells (at spaces where possible), drawn
 * from baseline y; returns the height used. */
double svg_wrapped(struct strbuf *sb, double x, double y, const char *cls, const char *text, int maxcols);

#endif
