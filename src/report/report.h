#ifndef BENCHDB_REPORT_H
#define BENCHDB_REPORT_H

#include "query/saved.h"
#include "report/chart_spec.h"
#include "report/evaldata.h"
#include "store/db.h"
#include "util/strbuf.h"

/* benchdb report: one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched) or one SVG chart, drawn from the rows of a
 * recorded evaluation. docs/report.md describes the pages. */

struct report_page {
    const struct report_eval *ev;       /* the evaluation the page shows */
    const struct report_eval *chart_ev; /* the rows the chart draws: ev, or a companion's (chart from=) */
    const struct chart_spec *spec;      /* the view (kind table: no chart) */
    const struct saved_query *query;    /* ev's text parsed (its parameters' descriptions); may be NULL */
    const char *registration;           /* a sentence on registration, or NULL */
    const char *verify;                 /* the commands that re-verify the evaluation */
};

/* Appends the page (HTML) or the chart alone (SVG; the table view has no
 * chart: an error). Returns the number of marks drawn, or -1 with *err set. */
long long report_html(struct strbuf *out, const struct report_page *p, char **err);
long long report_svg(struct strbuf *out, const struct report_page *p, char **err);

/* The sentence saying whether the evaluation's rule was fixed before its
 * plan began (from the rule and run tables), or NULL when it judges no
 * plan; malloc'd. */
char *report_registration_text(struct db *db, const struct report_eval *ev);

/* The evaluation of the companion query `name` (chart from=) that goes with
 * ev: the same parameters (those the companion declares) on the same data.
 * A recorded one is reused; else, when the store still holds the data ev
 * saw, it is run and recorded now. Sets *id (and *ran when it was run).
 * Returns 0, or -1 with *err set. */
int report_companion(struct db *db, const struct query_path *qp, const struct report_eval *ev, const char *name,
                     long long *id, int *ran, char **err);

#endif
