#ifndef BENCHDB_CHART_SPEC_H
#define BENCHDB_CHART_SPEC_H

/* The view a saved query's report gets, from one header line:
 *
 *   -- chart: KIND [OPTION=VALUE | FLAG]...
 *
 * KIND is forest, series, strip, bar or table. A VALUE holding spaces is
 * written in double quotes; a list is comma-separated (label=a,b). Options
 * name columns of the evaluation's rows (or, for band and ref, parameters
 * of the evaluation or numbers). docs/report.md describes every option; a
 * query without the line gets the table view. */
enum chart_kind { CHART_TABLE, CHART_FOREST, CHART_SERIES, CHART_STRIP, CHART_BAR };

#define CHART_MAX_COLS 6

enum chart_sort { SORT_DEFAULT, SORT_NONE, SORT_ESTIMATE, SORT_VALUE };

struct chart_spec {
    enum chart_kind kind;
    int line;                          /* the header line it came from (1-based) */
    char *from;                        /* companion query drawn instead of the rows */
    char *group[CHART_MAX_COLS];       /* one panel per distinct value */
    int ngroup;
    char *label[CHART_MAX_COLS];       /* a mark's (or a strip's) label */
    int nlabel;
    char *colour;                      /* class of a mark: colour and shape */
    char *estimate, *lo, *hi;          /* forest */
    char *x, *y;                       /* series */
    char *value;                       /* strip, bar */
    char *change, *revision, *alert;   /* series: change points and gate alerts */
    char *tick;                        /* series: the column labelling the x axis's ticks */
    char *lower, *upper;               /* series: a band per row (a gate's limits) */
    char *mark;                        /* series (from=): the page's rows drawn on the chart, by this column's value */
    char *match[CHART_MAX_COLS];       /* series: the columns a page's row and a chart's row share */
    int nmatch;
    char *lag;                         /* series: a mark also marks a reference point this many runs before it */
    char *flag[CHART_MAX_COLS];        /* series: mark values that put a panel first */
    int nflag;
    char *with;                        /* from=: NAME=VALUE[,...] given to the companion instead of the page's */
    char *summary;                     /* forest: rows drawn as summary diamonds */
    char *note;                        /* forest: warnings listed under the chart */
    char *line_col;                    /* bar: a reference line per panel */
    char *unit;                        /* a column whose value is the unit of the values */
    char *band[2];                     /* parameter names or numbers */
    char *ref;                         /* a number, a parameter, "none"; NULL: the default */
    int log;
    enum chart_sort sort;
    char *above, *below;               /* words for intervals above / below ref */
    char *title, *xlabel, *ylabel;
};

/* Finds the `-- chart:` line in a saved query's header (text is the whole
 * query as recorded) and parses it into *spec. Returns 1 when the header has
 * one, 0 when it has none (spec is the table view), -1 with *err set
 * ("SOURCE:LINE: chart: ...") when the line is malformed. */
int chart_spec_parse(const char *text, const char *source, struct chart_spec *spec, char **err);
void chart_spec_free(struct chart_spec *spec);
const char *chart_kind_name(enum chart_kind k);

#endif
