#ifndef BENCHDB_REPORT_SITE_H
#define BENCHDB_REPORT_SITE_H
/* benchdb site DIR: a static site of the whole store (docs/report.md,
 * "A site of the store"): an index (plans, hosts, the latest verdicts,
 * open regressions first, a sparkline per history), a page per history
 * (plan x host x cell x metric: the trend, its change points, the runs'
 * revisions) and a page per recorded evaluation (the report page).
 * Self-contained: no script, nothing fetched, every link a file in DIR.
 * One file per job: site_data.c reads the store, site_evals.c the
 * evaluations, site_history.c and site_index.c draw pages, site_html.c
 * what pages share, site_write.c writes only what changed. */
#include <stddef.h>

#include "query/saved.h"
#include "report/evaldata.h"
#include "store/db.h"
#include "util/strbuf.h"

/* A run, as the histories name it. */
struct site_run {
    char *name, *revision, *started_at, *plan, *host;
};

struct site_point {
    size_t run; /* index into site.runs */
    double value;
    long long n;
};

/* A change point of one variant's line (Otava's, as regressions finds it). */
struct site_cp {
    size_t at; /* index of the first point of the new regime, in the history's points */
    double before, after, change, pvalue;
    int regression;
};

/* One variant's points of a history: pts[first .. first + count). */
struct site_line {
    char *variant;
    size_t first, count;
    struct site_cp *cps;
    size_t ncps;
};

struct site_history {
    char *plan, *host, *benchmark, *params, *metric, *unit, *direction;
    char *file; /* "h/SLUG.html" */
    struct site_point *pts;
    size_t npts;
    struct site_line *lines;
    int nlines;
    /* the latest change point of any line: open when it is a regression */
    const struct site_cp *last;
    const struct site_line *last_line;
    long long *evals; /* evaluations whose rows name this history */
    size_t nevals;
};

/* A recorded evaluation, as the index lists it. */
struct site_eval {
    long long id;
    char *query, *plan, *at, *headline, *outcome;
    char *params; /* its parameters that differ from the defaults, but plan ("min_magnitude=0.05"); NULL: none */
    char *file; /* "e/ID.html" */
    int decision;     /* its query has an `-- outcome:` column */
    size_t nrows;     /* its rows */
    size_t failing;   /* the rows its outcome does not hold in (a decision's) */
    long long companion; /* the evaluation its chart is drawn from (from=), when found and not itself (0: none) */
    long long drawn_for; /* recorded by report to draw the chart of this earlier evaluation (0: none) */
};

struct site {
    struct db *db;
    const struct query_path *qp;
    double window, max_pvalue, min_magnitude; /* regressions' change-point parameters */
    struct site_run *runs;
    size_t nruns;
    struct site_history *h;
    size_t nh;
    size_t *order; /* histories as the index lists them: open regressions first */
    struct site_eval *evals;
    size_t nevals;
    char fingerprint[65];
    long long archives;
    struct intern *names; /* the histories' names, each text once (site_data.c) */
};

/* site_data.c: reads every history (runs, points, change points) and
 * orders them. Returns 0, or -1 with *err. */
int site_read(struct site *s, char **err);
void site_free(struct site *s);
/* A history's title: "serialize/format=binary on ci-b (plan nightly, primary)"; malloc'd. */
char *site_history_title(const struct site_history *h);

struct site_writer;
/* site_evals.c: the recorded evaluations: each one's page (written to w),
 * its headline, and the histories its rows name (site_history.evals).
 * Returns 0, or -1 with *err. */
int site_read_evals(struct site *s, struct site_writer *w, char **err);

/* site_history.c: a history's page. Returns 0, or -1 with *err. */
int site_history_page(const struct site *s, const struct site_history *h, struct strbuf *out, char **err);

/* site_index.c: index.html. Returns 0, or -1 with *err. */
int site_index_page(const struct site *s, struct strbuf *out, char **err);
/* The index's headline as plain text (what fails, the open regressions),
 * for the terminal; malloc'd. */
char *site_index_headline(const struct site *s);

/* site_html.c: what the pages share. */
void site_head(struct strbuf *sb, const char *title, const char *root);
void site_foot(struct strbuf *sb);
/* A small line of the values of a history (its first line), inline SVG. */
void site_sparkline(struct strbuf *sb, const struct site *s, const struct site_history *h);
/* "+12.7%" */
void site_pct(char *buf, double x);
/* The site's change-point parameters (window, max_pvalue, min_magnitude)
 * as people write them and as they read back, the same double (0.0012345678,
 * where %g cut it to 0.00123457, which the command named beside it would
 * not reproduce), each in buf[k] (40 bytes). */
void site_params_text(const struct site *s, char buf[3][40]);
/* The last good run of change point c of line l of h: the run before the
 * first of the new regime (regressions' last_good_run), or NULL when c
 * opens the line. */
const struct site_run *site_last_good(const struct site *s, const struct site_history *h, const struct site_line *l,
                                      const struct site_cp *c);
/* "ci-a-0115 (ddad7ae40079)": a run and its revision (a hash cut to 12
 * characters), escaped. */
void site_run_named(struct strbuf *sb, const struct site_run *r);

/* site_write.c: writes pages to dir, each only when its bytes differ from
 * the file there; removes the pages of an earlier run that are no longer
 * made (listed in DIR/.benchdb-site). */
struct site_writer {
    char *dir;
    char **made; /* the pages of this run, relative to dir */
    size_t nmade, cap;
    size_t written, unchanged, removed;
    int progress; /* print progress on stderr (a terminal) */
    size_t total;
};
/* Creates dir (and h/, e/) if need be. Returns 0, or -1 with *err. */
int site_writer_open(struct site_writer *w, const char *dir, char **err);
/* Writes page (relative name) unless it already holds exactly these bytes.
 * Returns 0, or -1 with *err. */
int site_put(struct site_writer *w, const char *page, const struct strbuf *content, char **err);
/* Removes the pages the previous run made and this one did not, and
 * records this run's. Returns 0, or -1 with *err. */
int site_writer_close(struct site_writer *w, char **err);
void site_writer_free(struct site_writer *w);

#endif
