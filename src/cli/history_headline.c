/* The first line of `benchdb history`'s list, from the listed rows and the
 * latest decision of each query read back from the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/history_headline.h"
#include "query/saved.h"
#include "report/evaldata.h"
#include "report/headline.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *cell(const struct rowset *rs, size_t r, int col)
{
    sqlite3_value *v = rowset_cell(rs, r, col);
    return sqlite3_value_type(v) == SQLITE_NULL ? NULL : (const char *)sqlite3_value_text(v);
}

/* qsort's order of row positions: by the query's name (NULL first), then
 * by position. */
static const struct rowset *sort_rows;
static int sort_col;

static int by_query(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const char *qx = cell(sort_rows, x, sort_col), *qy = cell(sort_rows, y, sort_col);
    int c = !qx || !qy ? (qx != NULL) - (qy != NULL) : strcmp(qx, qy);
    return c ? c : (x > y) - (x < y);
}

/* The recorded evaluation's answer in words (report_headline_answer),
 * its warning in rep; the source is the evaluation ("evaluation 14
 * (badhl):3: headline: ..."). */
static char *answer(const struct report_eval *ev, struct out_notes *rep)
{
    char src[160], *warning;
    snprintf(src, sizeof src, "evaluation %lld (%.100s)", ev->id, ev->query_name ? ev->query_name : "?");
    char *out = report_headline_answer(ev, src, &warning);
    if (warning)
        out_note(rep, "%s", warning);
    free(warning);
    return out;
}

/* Evaluation id, read back: -1 when it is no decision (no -- outcome:
 * column) or cannot be read, else the rows its outcome fails in (*nrows:
 * of how many), and when it fails *words: what its headline counts, in the
 * page's unit ("5 of 36 benchmarks slower or worse"; NULL: none). A
 * headline line that does not parse is warned of in rep. */
static long long failing(struct db *db, long long id, size_t *nrows, char **words, struct out_notes *rep)
{
    struct report_eval ev = {0};
    char *err = NULL;
    long long n = -1;
    *words = NULL;
    if (report_eval_load(db, id, &ev, &err) == 0) {
        struct saved_query *q = saved_query_parse(xstrdup(ev.text), ev.query_name, 0, &err);
        if (q && q->outcome) {
            n = (long long)report_failing_rows(&ev, q->outcome);
            *nrows = report_nrows(&ev);
        }
        if (n > 0 && strstr(ev.text, "-- headline")) {
            char *line = answer(&ev, rep);
            *words = report_failing_words(line);
            free(line);
        }
        saved_query_free(q);
    }
    report_eval_free(&ev);
    free(err);
    return n;
}

/* Whether outcome says no more than a row count ("8 rows"): a lookup's. */
static int bare_count(const char *outcome)
{
    size_t d = strspn(outcome, "0123456789");
    return d > 0 && (strcmp(outcome + d, " rows") == 0 || strcmp(outcome + d, " row") == 0);
}

/* A lookup's answer in words: its query's first -- headline line its
 * recorded rows fill (as `benchdb query` says it), or NULL; a line that
 * does not parse is warned of in rep, as `query` warns of it. */
static char *lookup_answer(struct db *db, long long id, struct out_notes *rep)
{
    struct report_eval ev = {0};
    char *err = NULL, *out = NULL;
    if (report_eval_load(db, id, &ev, &err) == 0 && ev.text && strstr(ev.text, "-- headline"))
        out = answer(&ev, rep);
    report_eval_free(&ev);
    free(err);
    return out;
}

char *history_headline(struct db *db, const struct rowset *rs, struct out_notes *rep)
{
    int cid = rowset_column(rs, "id"), cat = rowset_column(rs, "evaluated_at"), cq = rowset_column(rs, "query"),
        co = rowset_column(rs, "outcome");
    if (rs->nrow == 0 || cid < 0 || cat < 0 || cq < 0 || co < 0)
        return NULL;
    const char *lo = NULL, *hi = NULL;
    size_t queries = 0, decisions = 0, fails = 0;
    long long decided = 0; /* the decision's id, when there is one */
    char *last_words = NULL;
    struct strbuf sb = {0}, failed = {0};
    /* Each query's latest row (the rows are in id order): the rows sorted
     * by query, then position, the last of each run of one query. */
    size_t *by = xcalloc(rs->nrow, sizeof *by);
    unsigned char *latest = xcalloc(rs->nrow, 1);
    if (!by || !latest) {
        free(by);
        free(latest);
        return NULL;
    }
    for (size_t r = 0; r < rs->nrow; r++)
        by[r] = r;
    sort_rows = rs;
    sort_col = cq;
    qsort(by, rs->nrow, sizeof *by, by_query);
    for (size_t k = 0; k < rs->nrow; k++) {
        const char *q = cell(rs, by[k], cq), *next = k + 1 < rs->nrow ? cell(rs, by[k + 1], cq) : NULL;
        if (!next || !q || strcmp(q, next) != 0) {
            latest[by[k]] = 1;
            queries += q != NULL;
        }
    }
    for (size_t r = 0; r < rs->nrow; r++) {
        const char *at = cell(rs, r, cat), *q = cell(rs, r, cq);
        if (at && (!lo || strcmp(at, lo) < 0))
            lo = at;
        if (at && (!hi || strcmp(at, hi) > 0))
            hi = at;
        if (!latest[r] || !q)
            continue;
        long long id = sqlite3_value_int64(rowset_cell(rs, r, cid));
        size_t nrows = 0;
        char *words;
        long long f = failing(db, id, &nrows, &words, rep);
        if (f < 0)
            continue;
        decisions++;
        decided = id;
        if (f > 0 && words) /* the page's unit: "compare (id 4): 5 of 36 benchmarks slower or worse" */
            sb_printf(&failed, "%s%s (id %lld): %s", fails ? ", " : "", q, id, words);
        else if (f > 0)
            sb_printf(&failed, "%s%s (id %lld) in %lld of %zu row%s", fails ? ", " : "", q, id, f, nrows,
                      nrows == 1 ? "" : "s");
        fails += f > 0;
        if (f > 0 && words) {
            free(last_words);
            last_words = words; /* the one failing decision folded into the latest: "regressed (5 of 36 ...)" */
        } else {
            free(words);
        }
    }
    free(by);
    free(latest);
    size_t n = rs->nrow;
    sb_printf(&sb, "%zu evaluation%s of %zu quer%s", n, n == 1 ? "" : "s", queries, queries == 1 ? "y" : "ies");
    if (lo && hi && strncmp(lo, hi, 10) == 0)
        sb_printf(&sb, ", on %.10s", lo);
    else if (lo && hi)
        sb_printf(&sb, ", %.10s to %.10s", lo, hi);
    const char *lq = cell(rs, n - 1, cq), *lout = cell(rs, n - 1, co);
    long long lid = sqlite3_value_int64(rowset_cell(rs, n - 1, cid));
    /* the one decision is the latest evaluation: named once, with its outcome */
    int folded = decisions == 1 && lid == decided;
    if (decisions == 1)
        sb_printf(&sb, "; the latest decision %s", fails ? "fails: " : folded ? "holds: " : "holds");
    else if (decisions)
        sb_printf(&sb, "; the latest decision of each query: %zu of %zu fail%s%s", fails, decisions,
                  fails == 1 ? "s" : "", fails ? " (" : "");
    if (folded && fails && last_words) /* its outcome, then its count: not "...: 1 of 2 benchmarks slower: regressed" */
        sb_printf(&sb, "%s (id %lld): %s (%s)", lq ? lq : "", lid, lout ? lout : "", last_words);
    else if (fails)
        sb_printf(&sb, "%s%s", failed.buf, decisions == 1 ? "" : ")");
    if (folded && !fails)
        sb_printf(&sb, "%s (id %lld)", lq ? lq : "", lid);
    if (folded && !(fails && last_words))
        sb_printf(&sb, ": %s", lout ? lout : "");
    free(last_words);
    if (folded) {
        sb_free(&failed);
        return xsb_detach(&sb);
    }
    char *said = lout && bare_count(lout) ? lookup_answer(db, lid, rep) : NULL;
    sb_printf(&sb, "; the latest: %s (id %lld): %s%s%s", lq ? lq : "", lid, lout ? lout : "", said ? ", " : "",
              said ? said : "");
    free(said);
    sb_free(&failed);
    return xsb_detach(&sb);
}
