#ifndef BENCHDB_REPORT_H
#define BENCHDB_REPORT_H

#include "query/evaluate.h"
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
    const char *nav;                    /* HTML put first in the page (the site's links), or NULL */
    const char *no_chart;               /* why the chart is not drawn (chart_ev NULL), or NULL */
    int headline_optional;              /* a headline line that does not parse: no headline (the page opens
                                           with its outcome line), not an error; the site's, which warns */
};

/* The CSS of a page (with svg_css): what a site's pages share too. */
extern const char report_page_css[];

/* Appends the page (HTML) or the chart alone (SVG; the table view has no
 * chart: an error). The page opens with the headline (report/headline.h),
 * else the outcome line. Returns the number of marks drawn, or -1 with
 * *err set (out of memory included). */
long long report_html(struct strbuf *out, const struct report_page *p, char **err);
long long report_svg(struct strbuf *out, const struct report_page *p, char **err);

/* 0 when spec draws a chart (--format svg can be written), else -1 with
 * *err: a table view has none. */
int report_svg_possible(const struct chart_spec *spec, const char *query_name, char **err);

/* Whether the companion query `name` of ev (chart from=) can be found and
 * given ev's parameters, as report_companion needs; nothing is run.
 * Returns 0, or -1 with *err set. */
int report_companion_check(const struct query_path *qp, const struct report_eval *ev, const char *name,
                           const char *with, char **err);

/* Whether the chart of spec can be drawn from ev's rows (its columns, its
 * band and reference parameters; page: the page's own evaluation when ev
 * is its companion's, else NULL): drawn, and thrown away. A spec drawn
 * from a companion (from=) or a table is not checked here. Returns 0, or
 * -1 with *err set, as drawing the page would. */
int report_check_chart(const struct chart_spec *spec, const struct report_eval *ev, const struct report_eval *page,
                       char **err);

/* The parameters of ev that differ from their defaults in q (the query
 * of its recorded text), but skip (NULL: none), as "NAME=VALUE, ...", the
 * page's header's list; NULL when there are none. malloc'd. */
char *report_params_given(const struct report_eval *ev, const struct saved_query *q, const char *skip);

/* The sentence saying whether the evaluation's rule was fixed before its
 * plan began (from the rule and run tables), and for a retroactive one
 * which of the two reasons holds (the parameters that differ from the
 * defaults of q, its recorded text's query, named), or NULL when it
 * judges no plan; malloc'd. */
char *report_registration_text(struct db *db, const struct report_eval *ev, const struct saved_query *q);

/* The commands that re-verify ev: benchdb query NAME with the parameters
 * that differ from the defaults of `now` (the saved query of that name
 * now, or NULL), then history --diff; or how to recover the recorded text
 * when now's differs. malloc'd. */
char *report_verify_text(const struct report_eval *ev, const struct saved_query *now, const struct query_path *qp);

/* The evaluation of the companion query `name` (chart from=) that goes with
 * ev: the same parameters (those the companion declares; spec->with's
 * NAME=VALUE in place of ev's, as text) on the same data
 * (ev->fingerprint). A recorded one is reused (c->id); else, when the store
 * still holds the data ev saw and may_run, it is run now without recording, and
 * checked that spec's chart can be drawn from its rows (c->q, c->ev): the
 * caller records it with report_companion_record once nothing else can
 * fail. Returns 0, or -1 with *err set (nothing recorded). */
struct report_companion_run {
    long long id;          /* the companion's evaluation, once recorded */
    int ran;               /* run and recorded by this command */
    struct saved_query *q; /* run but not recorded yet: the query and its evaluation */
    struct evaluation ev;
};
int report_companion(struct db *db, const struct query_path *qp, const struct report_eval *ev, const char *name,
                     const struct chart_spec *spec, int may_run, struct report_companion_run *c, char **err);
/* Records a companion run by report_companion (nothing to do for one
 * recorded before). Returns 0, or -1 with *err. */
int report_companion_record(struct db *db, struct report_companion_run *c, char **err);
void report_companion_free(struct report_companion_run *c);

#endif
