#ifndef BENCHDB_REPORT_PAGE_TABLE_H
#define BENCHDB_REPORT_PAGE_TABLE_H

#include "report/evaldata.h"
#include "util/strbuf.h"

/* The rows of ev as HTML: a table of the answer's columns (those of
 * answer[0..nanswer) the rows hold and use; all of them when the list is
 * empty), then every column in a collapsed <details>; with details_only,
 * only the latter (the rows a chart draws, in their order). With outcome
 * (a decision's `-- outcome:` column), the rows it does not hold in come
 * first, then the rest, each in recorded order. Values as display.h shows
 * them, the exact text in a cell's title. Out of memory: sb->failed. */
void page_table(struct strbuf *sb, const struct report_eval *ev, char *const *answer, int nanswer, int details_only,
                const char *outcome);

/* The columns a page's table leads with: the header's `-- columns: A, B`
 * line, else the query's `-- show:` list (show[0..nshow)), else none
 * (*out NULL). Returns 0, or -1 when memory ran out (*out freed by the
 * caller with page_columns_free). */
int page_answer_columns(const char *text, char *const *show, int nshow, char ***out, int *n);
void page_columns_free(char **cols, int n);

#endif
