#ifndef BENCHDB_REPORT_HEADLINE_H
#define BENCHDB_REPORT_HEADLINE_H

#include "report/evaldata.h"

/* The sentence a page opens with, built from the evaluation's rows by the
 * `-- headline` lines of the query's header (docs/report.md, "The
 * headline"):
 *
 *   -- headline[ROW]: TEMPLATE
 *   -- headline: TEMPLATE
 *
 * The lines are tried in order; the first that the rows fill is the
 * headline. ROW chooses the row the template's {COLUMN}s come from
 * (conditions such as kind=regression, and largest |change_percent|); a
 * line whose ROW matches no row, or whose placeholder cannot be filled
 * (a column the rows lack, a null), is passed over, except inside an
 * optional [segment], which is then left out. Aggregates (count(...),
 * distinct(...), max(...), min(...), sum(...), param(NAME), and the same
 * over the chart's rows as chart.count(...)) fill without a row, so a last
 * line of aggregates only says what an empty result looked at; distinct's
 * "no COL=VALUE" leaves out the combinations of which a row holds it. */

/* The headline of ev (chart_ev: the rows its chart draws, ev itself or a
 * companion's; may be NULL). Returns 0 with *out the sentence (malloc'd),
 * or NULL when the query has no headline line or no line can be filled;
 * -1 with *err when a line is malformed ("SOURCE:LINE: headline: ..."). */
int report_headline(const struct report_eval *ev, const struct report_eval *chart_ev, const char *source,
                    char **out, char **err);

/* The headline of ev from its own rows, where no chart's rows are at hand
 * (the terminal: `benchdb query` runs no companion query): a line reading
 * the chart's rows (chart.*) is passed over, and an empty result has no
 * headline when such a line was (only the chart's rows say what it looked
 * at), unless a `headline[without chart]:` line fills: the terminal's own
 * words for it, which report_headline passes over. Returns as
 * report_headline. */
int report_headline_rows(const struct report_eval *ev, const char *source, char **out, char **err);

/* The answer in words on a terminal (`benchdb query`, `benchdb history`):
 * report_headline_rows' sentence, or NULL. A line that does not parse (an
 * unknown format) gives NULL and *warning, naming its source and line as
 * `benchdb report` refuses it ("warning: SOURCE:LINE: headline: ... (no
 * headline; 'benchdb report' refuses the query until it is fixed)"), for
 * the caller to say beside its answer; *warning NULL otherwise. */
char *report_headline_answer(const struct report_eval *ev, const char *source, char **warning);

/* What a failing decision's headline counts, in its own words: after its
 * "fails: ", up to the first ',' or ';', when that begins with a number
 * ("the gate fails: 5 of 36 benchmarks slower or worse, 15 faster ..." ->
 * "5 of 36 benchmarks slower or worse"), so that the site's index and
 * `history` count in the page's unit; NULL otherwise (malloc'd). */
char *report_failing_words(const char *headline);

/* Checks every headline line of a query's text (before it runs). Returns
 * 0, or -1 with *err as above. */
int report_headline_check(const char *text, const char *source, char **err);

#endif
