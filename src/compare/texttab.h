#ifndef BENCHDB_COMPARE_TEXTTAB_H
#define BENCHDB_COMPARE_TEXTTAB_H
/* The layout of benchstat's text tables (golang.org/x/perf
 * cmd/benchstat/internal/texttab), reimplemented so that the same cells
 * give the same lines, space for space:
 *
 *  - a table is rows of cells; a cell sits at a column and may span
 *    several; its left margin is " " by default (none in column 0 or for
 *    an empty value), or the margin given;
 *  - every column's margin width is the widest margin of its cells, and
 *    a margin prints right-aligned in it;
 *  - a column is as wide as its widest one-column cell (margin included);
 *    a spanning cell too wide for its columns widens the columns it spans
 *    that are not marked shrink (benchstat's tables leave one such column
 *    per span, or none, so the order spans are taken in does not matter);
 *  - cells print left, centred or right-aligned in their width, the empty
 *    ones (value and margin blank) not at all, so lines have no trailing
 *    blanks; a width that comes out negative pads on the other side, as
 *    Go's %*s does.
 *
 * Widths count code points, as Go's utf8.RuneCountInString. */
#include <stdio.h>

#include "compare/arena.h"

enum tt_align { TT_LEFT, TT_CENTER, TT_RIGHT };

struct tt_cell {
    int row, col, span;
    const char *value;  /* arena-held or static */
    const char *margin;
    enum tt_align align;
    int width, mwidth;  /* of value and margin, in code points */
};

struct texttab {
    struct arena *arena;
    struct tt_cell *cells;
    size_t n, cap;
    int cols;
    unsigned char *shrink;
    int nshrink;
    int cur_row, cur_col;
    int failed;
};

void tt_init(struct texttab *t, struct arena *a);
void tt_free(struct texttab *t);
/* Starts a new row (the first call starts row 0). */
void tt_row(struct texttab *t);
/* Moves to column col (never backwards). */
void tt_col(struct texttab *t, int col);
/* Adds a cell spanning cols columns at the current position and moves past
 * it. value is kept by reference (arena-held or static). margin NULL: the
 * default. */
void tt_span(struct texttab *t, int cols, const char *value, enum tt_align align, const char *margin);
static inline void tt_cell(struct texttab *t, const char *value, enum tt_align align, const char *margin)
{
    tt_span(t, 1, value, align, margin);
}
void tt_set_shrink(struct texttab *t, int col);
/* Lays the table out and writes it; -1 when memory ran out (or ran out
 * while the cells were added) or on a write error. */
int tt_format(struct texttab *t, FILE *out);

/* Code points in s (each byte that does not continue a UTF-8 sequence). */
int tt_width(const char *s);

#endif
