/* benchstat's text table layout (texttab.h). */
#include "compare/texttab.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

int tt_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

void tt_init(struct texttab *t, struct arena *a)
{
    memset(t, 0, sizeof *t);
    t->arena = a;
    t->cur_row = -1;
}

void tt_free(struct texttab *t)
{
    free(t->cells);
    free(t->shrink);
    memset(t, 0, sizeof *t);
}

void tt_row(struct texttab *t)
{
    t->cur_row++;
    t->cur_col = 0;
}

void tt_col(struct texttab *t, int col)
{
    if (col > t->cur_col)
        t->cur_col = col;
}

void tt_span(struct texttab *t, int cols, const char *value, enum tt_align align, const char *margin)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct tt_cell *c = xreallocarray(t->cells, cap, sizeof *c);
        if (!c) {
            t->failed = 1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    if (!margin)
        margin = t->cur_col == 0 || !*value ? "" : " ";
    t->cells[t->n++] = (struct tt_cell){t->cur_row < 0 ? 0 : t->cur_row, t->cur_col, cols, value, margin, align,
                                        tt_width(value), tt_width(margin)};
    t->cur_col += cols;
    if (t->cur_col > t->cols)
        t->cols = t->cur_col;
}

void tt_set_shrink(struct texttab *t, int col)
{
    if (col >= t->nshrink) {
        int n = col + 16;
        unsigned char *s = xreallocarray(t->shrink, (size_t)n, 1);
        if (!s) {
            t->failed = 1;
            return;
        }
        memset(s + t->nshrink, 0, (size_t)(n - t->nshrink));
        t->shrink = s;
        t->nshrink = n;
    }
    t->shrink[col] = 1;
}

static int is_shrink(const struct texttab *t, int col)
{
    return col < t->nshrink && t->shrink[col];
}

/* Blank: nothing but spaces (Go's strings.TrimSpace of ASCII text). */
static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' && *s != '\v' && *s != '\f')
            return 0;
    return 1;
}

static int by_position(const void *a, const void *b)
{
    const struct tt_cell *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* Column widths (margins included) into ws, margin widths into lm. */
static void widths(const struct texttab *t, int *ws, int *lm)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->cells[i].mwidth > lm[t->cells[i].col])
            lm[t->cells[i].col] = t->cells[i].mwidth;
    for (size_t i = 0; i < t->n; i++) {
        const struct tt_cell *c = &t->cells[i];
        int w = c->width + lm[c->col];
        if (c->span == 1 && w > ws[c->col])
            ws[c->col] = w;
    }
    for (size_t i = 0; i < t->n; i++) {
        const struct tt_cell *c = &t->cells[i];
        if (c->span == 1)
            continue;
        int w = c->width + lm[c->col], have = 0, stretch = -1, fixed = 0;
        for (int k = c->col; k < c->col + c->span; k++) {
            have += ws[k];
            if (is_shrink(t, k))
                fixed += ws[k];
            else if (stretch < 0)
                stretch = k;
            else
                fixed += ws[k]; /* not in benchstat's tables: a second stretch column keeps its width */
        }
        if (have < w && stretch >= 0 && w - fixed > ws[stretch])
            ws[stretch] = w - fixed;
    }
}

/* Go's fmt "%*s" of "": |w| spaces. */
static void pad(FILE *out, int w)
{
    for (int i = w < 0 ? -w : w; i > 0; i--)
        fputc(' ', out);
}

/* One cell, the line being at *off; advances *off. */
static void put_cell(FILE *out, const struct tt_cell *c, const int *offs, const int *lm, int *off)
{
    int spaces = offs[c->col] - *off;
    pad(out, spaces);
    int mw = c->mwidth;
    pad(out, lm[c->col] - mw);
    fputs(c->margin, out);
    /* Go counts where the cell should start, not what was printed. */
    *off = offs[c->col] + lm[c->col];
    int tw = offs[c->col + c->span] - offs[c->col] - lm[c->col], vw = c->width, before = 0, after = 0;
    if (c->align == TT_CENTER) {
        before = (tw - vw) / 2;
        before = before < 0 ? -before : before;
    } else if (c->align == TT_RIGHT) {
        if (tw >= 0)
            before = tw > vw ? tw - vw : 0;
        else
            after = -tw > vw ? -tw - vw : 0;
    }
    pad(out, before);
    fputs(c->value, out);
    pad(out, after);
    *off += before + vw + after;
}

int tt_format(struct texttab *t, FILE *out)
{
    if (t->failed)
        return -1;
    int *ws = xcalloc((size_t)t->cols + 1, sizeof *ws), *lm = xcalloc((size_t)t->cols + 1, sizeof *lm);
    int *offs = xcalloc((size_t)t->cols + 1, sizeof *offs);
    if (!ws || !lm || !offs) {
        free(ws);
        free(lm);
        free(offs);
        return -1;
    }
    widths(t, ws, lm);
    for (int i = 0, o = 0; i <= t->cols; i++) {
        offs[i] = o;
        o += i < t->cols ? ws[i] : 0;
    }
    /* Cells are added row by row, left to right: sort only when not. */
    for (size_t i = 1; i < t->n; i++)
        if (by_position(&t->cells[i - 1], &t->cells[i]) > 0) {
            qsort(t->cells, t->n, sizeof *t->cells, by_position);
            break;
        }
    int row = 0, off = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct tt_cell *c = &t->cells[i];
        if (blank(c->value) && blank(c->margin))
            continue;
        for (; c->row > row; row++) {
            fputc('\n', out);
            off = 0;
        }
        put_cell(out, c, offs, lm, &off);
    }
    if (t->n)
        fputc('\n', out);
    free(ws);
    free(lm);
    free(offs);
    return ferror(out) ? -1 : 0;
}
