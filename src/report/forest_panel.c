/* One panel of a forest chart (see forest.h): its title, counts and
 * legend, the rows (labelled; compact; or compact in labelled blocks when
 * consecutive rows share all but their last label column, as a cell's
 * runs do), the band, the axis (its ends broken when clipped), the
 * reference line, and the summary rows as diamonds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/forest.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

/* Blocks of consecutive rows sharing their label's leading columns. */
struct blocks {
    size_t *start; /* rows start[k] .. start[k + 1] - 1; start[n] = the row count */
    size_t n;
    int cols; /* the leading label columns that name a block */
};

static char *lead_label(const struct forest *f, size_t i, int cols) { return row_label_n(f->c, i, cols); }

/* The blocks of rows, when the compact rows come in at most PANEL_LABELLED
 * of them, each of two rows or more; else b->n = 0. */
static int find_blocks(const struct forest *f, struct frow **rows, size_t n, struct blocks *b)
{
    memset(b, 0, sizeof *b);
    b->cols = f->c->spec->nlabel - 1;
    if (b->cols < 1 || n <= PANEL_LABELLED)
        return 0;
    if (!(b->start = xmalloc((n + 1) * sizeof *b->start)))
        return -1;
    char *prev = NULL;
    for (size_t j = 0; j < n && b->n <= PANEL_LABELLED; j++) {
        char *l = lead_label(f, rows[j]->i, b->cols);
        if (!l) {
            free(prev);
            return -1;
        }
        if (!prev || strcmp(prev, l) != 0)
            b->start[b->n++] = j;
        free(prev);
        prev = l;
    }
    free(prev);
    b->start[b->n] = n;
    if (b->n > PANEL_LABELLED || b->n * 2 > n)
        b->n = 0;
    return 0;
}

/* Widths of the label and numbers columns of labelled rows and summaries. */
static void label_widths(const struct forest *f, const struct forest_panel *fp, int compact, const struct blocks *b,
                         int *lc, int *nc)
{
    *lc = *nc = 0;
    for (size_t k = 0; k < b->n; k++) {
        char *l = lead_label(f, fp->rows[b->start[k]]->i, b->cols);
        int w = l ? text_cols(l) : 0;
        *lc = w > *lc ? w : *lc;
        free(l);
    }
    for (size_t pass = 0; !compact && pass < 2; pass++)
        for (size_t j = 0; j < (pass ? fp->nsum : fp->n); j++) {
            const struct frow *r = pass ? fp->sums[j] : fp->rows[j];
            char *l = row_label(f->c, r->i), *t = forest_numbers_text(f, r);
            int a = l ? text_cols(l) : 0, w = t ? text_cols(t) : 0;
            *lc = a > *lc ? a : *lc;
            *nc = w > *nc ? w : *nc;
            free(l);
            free(t);
        }
}

static char *axis_label(const struct forest *f, const struct forest_panel *fp)
{
    const struct chart_spec *s = f->c->spec;
    size_t *idx = xmalloc((fp->nall ? fp->nall : 1) * sizeof *idx);
    char *unit = NULL;
    if (idx) {
        for (size_t j = 0; j < fp->nall; j++)
            idx[j] = fp->all[j]->i;
        unit = chart_unit(f->c, idx, fp->nall);
        free(idx);
    }
    char *xl = s->xlabel ? bd_strdupf("%s%s%s%s%s", s->xlabel, unit ? " (" : "", unit ? unit : "", unit ? ")" : "",
                                      f->clipped ? ", axis clipped" : "")
                         : bd_strdupf("%s and its interval [%s, %s]%s%s%s%s%s", s->estimate, s->lo, s->hi,
                                      f->ax.log ? ", log scale" : "", unit ? " (" : "", unit ? unit : "",
                                      unit ? ")" : "", f->clipped ? ", axis clipped" : "");
    free(unit);
    return xl;
}

/* Breaks at the ends of a clipped axis. */
static void axis_breaks(struct strbuf *sb, const struct axis *ax, double y)
{
    double ends[2] = {ax->p0, ax->p1};
    for (int k = 0; k < 2; k++) {
        sb_puts(sb, "<path class=\"ax\" d=\"M");
        svg_num(sb, ends[k] - 5);
        sb_putc(sb, ' ');
        svg_num(sb, y + 4);
        sb_puts(sb, "l4 -8m3 8l4 -8\"/>");
    }
}

/* The rows: marks, and labels (per row, or per block) and numbers. */
static void draw_rows(struct forest *f, struct strbuf *sb, const struct forest_panel *fp, const struct row_layout *lay,
                      const struct blocks *b, int compact, double top)
{
    for (size_t k = 0; k < b->n; k++) { /* a block: a band behind every other one, its label at its middle */
        double y0 = top + (double)b->start[k] * lay->pitch, y1 = top + (double)b->start[k + 1] * lay->pitch;
        if (k % 2)
            sb_printf(sb, "<rect x=\"8\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#000\" fill-opacity=\"0.04\"/>",
                      y0, CHART_W - 16, y1 - y0);
        char *l = lead_label(f, fp->rows[b->start[k]]->i, b->cols), *lf = l ? text_fit(l, (int)(lay->labw / CHAR_W)) : NULL;
        if (lf)
            svg_text(sb, 8, (y0 + y1) / 2 + 4, "start", "t", lf);
        free(l);
        free(lf);
    }
    for (size_t j = 0; j < fp->n; j++) {
        double yc = top + (double)j * lay->pitch + lay->pitch / 2;
        forest_draw_mark(f, sb, fp->rows[j], fp->key, yc, lay->pitch, compact);
        if (compact)
            continue;
        char *l = row_label(f->c, fp->rows[j]->i), *lf = l ? text_fit(l, (int)(lay->labw / CHAR_W)) : NULL;
        char *t = forest_numbers_text(f, fp->rows[j]);
        if (lf)
            svg_text(sb, 8, yc + 4, "start", "t", lf);
        if (t)
            svg_text(sb, CHART_W - 8 - lay->numw, yc + 4, "start", "t", t);
        free(l);
        free(lf);
        free(t);
    }
}

static void draw_sums(struct forest *f, struct strbuf *sb, const struct forest_panel *fp, const struct row_layout *lay,
                      int compact, double ys)
{
    sb_printf(sb, "<line class=\"sep\" x1=\"8\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", CHART_W - 8, ys, ys);
    for (size_t j = 0; j < fp->nsum; j++) {
        double yc = ys + 4 + 20.0 * (double)j + 10;
        forest_draw_mark(f, sb, fp->sums[j], fp->key, yc, 20, 0);
        char *l = row_label(f->c, fp->sums[j]->i);
        if (l && !*l) { /* a summary row without a label of its own (benchstat's geomean row) */
            free(l);
            l = xstrdup("summary");
        }
        char *lf = l ? text_fit(l, compact ? 40 : (int)(lay->labw / CHAR_W)) : NULL;
        char *t = forest_numbers_text(f, fp->sums[j]);
        if (lf && t && compact) {
            /* Compact panels have no label column: label and numbers in one text at the left. */
            char *both = bd_strdupf("%s: %s", lf, t);
            if (both)
                svg_text(sb, 8, yc - 8, "start", "tb", both);
            free(both);
        } else if (lf && t) {
            svg_text(sb, 8, yc + 4, "start", "tb", lf);
            svg_text(sb, CHART_W - 8 - lay->numw, yc + 4, "start", "tb", t);
        }
        free(l);
        free(lf);
        free(t);
    }
}

int forest_panel_draw(struct forest *f, const struct forest_panel *fp)
{
    const struct chart_spec *s = f->c->spec;
    struct panel *p = panel_new(f->c->out);
    struct blocks b;
    if (!p || find_blocks(f, fp->rows, fp->n, &b))
        return -1;
    struct strbuf *sb = &p->svg;
    double y = 4;
    y += panel_title(sb, fp->title, fp->nall, fp->nall == 1 ? "interval" : "intervals", fp->part, fp->parts, y);
    int compact = fp->n > PANEL_LABELLED;
    if (fp->part == 1) {
        y += forest_class_lines(f, sb, fp->all, fp->nall, y);
        size_t nout = 0;
        for (size_t j = 0; j < fp->nall; j++)
            nout += fp->all[j]->out != 0;
        y += 4 + forest_legend(f, sb, y + 4, compact, nout);
    }
    int lc, nc;
    label_widths(f, fp, compact, &b, &lc, &nc);
    char *note = bd_strdupf("one line per row (%zu here), %s%s; hover a mark for its numbers", fp->n,
                            s->sort == SORT_NONE ? "in the evaluation's order" : "sorted by estimate",
                            b.n ? ", labelled per block of rows" : "");
    struct row_layout lay = rows_layout(sb, &f->ax, compact, lc, nc, fp->n, 2, 40, note ? note : "", &y);
    if (b.n) { /* compact rows in labelled blocks: the label column left, each block at least a line high */
        size_t least = fp->n;
        for (size_t k = 0; k < b.n; k++)
            least = b.start[k + 1] - b.start[k] < least ? b.start[k + 1] - b.start[k] : least;
        lay.labw = (lc > LABEL_COLS ? LABEL_COLS : lc) * CHAR_W;
        f->ax.p0 = 8 + lay.labw + 14;
        lay.pitch = fmax(lay.pitch, (LINE_H + 2) / (double)least);
    }
    free(note);
    axis_ticks(&f->ax, 0);
    double top = y + 6, bottom = top + (double)fp->n * lay.pitch + (fp->nsum ? 8 + 20.0 * (double)fp->nsum : 0);
    if (f->has_band)
        svg_band(sb, axis_pos(&f->ax, f->band[0]), axis_pos(&f->ax, f->band[1]), top, bottom);
    char *xl = axis_label(f, fp);
    double axh = axis_draw_x(sb, &f->ax, bottom + 4, top, xl ? xl : "");
    free(xl);
    if (f->clipped)
        axis_breaks(sb, &f->ax, bottom + 4);
    if (f->has_ref)
        svg_vline(sb, "ref", axis_pos(&f->ax, f->ref), top, bottom + 4);
    draw_rows(f, sb, fp, &lay, &b, compact, top);
    if (fp->nsum)
        draw_sums(f, sb, fp, &lay, compact, top + (double)fp->n * lay.pitch + 4);
    free(b.start);
    p->marks = fp->n + fp->nsum;
    f->c->out->marks += fp->n + fp->nsum;
    p->h = bottom + 4 + axh + 6;
    return sb->failed ? -1 : 0;
}
