/* The first line of `benchdb history`'s list, from the listed rows and the
 * latest decision of each query read back from the store. */
#include <stdint.h>
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
 * of how many), and when it fails and words is not NULL, *words: what its
 * headline counts, in the page's unit ("5 of 36 benchmarks slower or
 * worse"; NULL: none); *plan: the plan it judged (NULL: none). A headline
 * line that does not parse is warned of in rep. */
static long long failing(struct db *db, long long id, size_t *nrows, char **words, char **plan, struct out_notes *rep)
{
    struct report_eval ev = {0};
    char *err = NULL;
    long long n = -1;
    if (words)
        *words = NULL;
    *plan = NULL;
    if (report_eval_load(db, id, &ev, &err) == 0) {
        struct saved_query *q = saved_query_parse(xstrdup(ev.text), ev.query_name, 0, &err);
        if (q && q->outcome) {
            n = (long long)report_failing_rows(&ev, q->outcome);
            *nrows = report_nrows(&ev);
            *plan = ev.judged_plan ? xstrdup(ev.judged_plan) : NULL;
        }
        if (n > 0 && words && strstr(ev.text, "-- headline")) {
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

static int same_text(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

/* The latest decision of each query (and whether it changed from the
 * query's decision before it, of the same plan), as the first line says
 * them. */
struct decisions {
    size_t n, fails, compared, changed;
    long long decided; /* the decision's id, when there is one */
    char *last_words;  /* the one failing decision's count, folded into the latest */
    long long prev_id; /* the decision before the last one that changed, and whether it failed */
    int prev_failed;
    struct strbuf failed, changes;
};

/* Adds the latest decision of query q (row id, the query's row before it
 * prev_id, 0: none) to d. */
static void add_decision(struct db *db, struct decisions *d, const char *q, long long id, long long prev_id,
                         struct out_notes *rep)
{
    size_t nrows = 0, pn = 0;
    char *words, *plan, *pplan = NULL;
    long long f = failing(db, id, &nrows, &words, &plan, rep);
    if (f < 0)
        return;
    d->n++;
    d->decided = id;
    if (f > 0 && words) /* the page's unit: "compare (id 4): 5 of 36 benchmarks slower or worse" */
        sb_printf(&d->failed, "%s%s (id %lld): %s", d->fails ? ", " : "", q, id, words);
    else if (f > 0)
        sb_printf(&d->failed, "%s%s (id %lld) in %lld of %zu row%s", d->fails ? ", " : "", q, id, f, nrows,
                  nrows == 1 ? "" : "s");
    d->fails += f > 0;
    if (f > 0 && words) {
        free(d->last_words);
        d->last_words = words;
    } else {
        free(words);
    }
    /* the morning's question: did it change? From the query's decision
     * before it, when that judged the same plan (another plan's says
     * nothing of this one's). */
    long long pf = prev_id ? failing(db, prev_id, &pn, NULL, &pplan, rep) : -1;
    if (pf >= 0 && same_text(plan, pplan)) {
        d->compared++;
        if ((f > 0) != (pf > 0)) {
            d->prev_id = prev_id;
            d->prev_failed = pf > 0;
            sb_printf(&d->changes, "%s%s (id %lld) %s, after id %lld %s", d->changed++ ? ", " : "", q, id,
                      f > 0 ? "fails" : "holds", prev_id, pf > 0 ? "failed" : "held");
        }
    }
    free(plan);
    free(pplan);
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

/* Each query's latest row (the rows are in id order), and the row of
 * the same query before it: the rows sorted by query, then position, the
 * last of each run of one query. Fills latest (1 for those rows) and prev
 * (the row before, or SIZE_MAX); returns how many queries. */
static size_t latest_rows(const struct rowset *rs, int cq, unsigned char *latest, size_t *prev)
{
    size_t *by = xcalloc(rs->nrow, sizeof *by), queries = 0;
    for (size_t r = 0; r < rs->nrow; r++)
        by[r] = r;
    sort_rows = rs;
    sort_col = cq;
    qsort(by, rs->nrow, sizeof *by, by_query);
    for (size_t k = 0; k < rs->nrow; k++) {
        const char *q = cell(rs, by[k], cq), *next = k + 1 < rs->nrow ? cell(rs, by[k + 1], cq) : NULL;
        const char *before = k ? cell(rs, by[k - 1], cq) : NULL;
        prev[by[k]] = SIZE_MAX;
        if (!next || !q || strcmp(q, next) != 0) {
            latest[by[k]] = 1;
            queries += q != NULL;
            if (q && before && strcmp(q, before) == 0)
                prev[by[k]] = by[k - 1];
        }
    }
    free(by);
    return queries;
}

/* "; the latest decision of each query: 1 of 3 fails (...); no decision
 * changed from its query's one before": the decisions of d, and whether
 * the one decision is folded into the latest evaluation (id lid, query
 * lq, outcome lout): named once, with its outcome. Returns that. */
static int say_decisions(struct strbuf *sb, const struct decisions *d, const char *lq, long long lid, const char *lout)
{
    int folded = d->n == 1 && lid == d->decided;
    if (d->n == 1)
        sb_printf(sb, "; the latest decision %s", d->fails ? "fails: " : folded ? "holds: " : "holds");
    else if (d->n)
        sb_printf(sb, "; the latest decision of each query: %zu of %zu fail%s%s", d->fails, d->n,
                  d->fails == 1 ? "s" : "", d->fails ? " (" : "");
    if (folded && d->fails && d->last_words) /* its outcome, then its count: not "...: 1 of 2 slower: regressed" */
        sb_printf(sb, "%s (id %lld): %s (%s)", lq ? lq : "", lid, lout ? lout : "", d->last_words);
    else if (d->fails)
        sb_printf(sb, "%s%s", d->failed.buf, d->n == 1 ? "" : ")");
    if (folded && !d->fails)
        sb_printf(sb, "%s (id %lld)", lq ? lq : "", lid);
    if (folded && !(d->fails && d->last_words))
        sb_printf(sb, ": %s", lout ? lout : "");
    if (d->changed && d->n == 1)
        sb_printf(sb, "; changed from the decision before it (id %lld), which %s", d->prev_id,
                  d->prev_failed ? "failed" : "held");
    else if (d->changed)
        sb_printf(sb, "; %zu of %zu changed from the query's decision before it: %s", d->changed, d->compared,
                  d->changes.buf);
    else if (d->compared)
        sb_puts(sb, d->n == 1 ? "; unchanged from the decision before it"
                                     : "; none changed from the query's decision before it");
    return folded;
}

char *history_headline(struct db *db, const struct rowset *rs, long long older, struct out_notes *rep)
{
    int cid = rowset_column(rs, "id"), cat = rowset_column(rs, "evaluated_at"), cq = rowset_column(rs, "query"),
        co = rowset_column(rs, "outcome");
    if (rs->nrow == 0 || cid < 0 || cat < 0 || cq < 0 || co < 0)
        return NULL;
    const char *lo = NULL, *hi = NULL;
    struct decisions d = {0};
    struct strbuf sb = {0};
    unsigned char *latest = xcalloc(rs->nrow, 1);
    size_t *prev = xcalloc(rs->nrow, sizeof *prev);
    size_t queries = latest_rows(rs, cq, latest, prev);
    for (size_t r = 0; r < rs->nrow; r++) {
        const char *at = cell(rs, r, cat), *q = cell(rs, r, cq);
        if (at && (!lo || strcmp(at, lo) < 0))
            lo = at;
        if (at && (!hi || strcmp(at, hi) > 0))
            hi = at;
        if (latest[r] && q)
            add_decision(db, &d, q, sqlite3_value_int64(rowset_cell(rs, r, cid)),
                         prev[r] == SIZE_MAX ? 0 : sqlite3_value_int64(rowset_cell(rs, prev[r], cid)), rep);
    }
    free(latest);
    free(prev);
    size_t n = rs->nrow;
    sb_printf(&sb, "%zu evaluation%s of %zu quer%s", n, n == 1 ? "" : "s", queries, queries == 1 ? "y" : "ies");
    if (older > 0) /* nothing dropped unsaid: what the line says is of these alone */
        sb_printf(&sb, " (the last %zu of %lld: %lld earlier not listed)", n, (long long)n + older, older);
    if (lo && hi && strncmp(lo, hi, 10) == 0)
        sb_printf(&sb, ", on %.10s", lo);
    else if (lo && hi)
        sb_printf(&sb, ", %.10s to %.10s", lo, hi);
    const char *lq = cell(rs, n - 1, cq), *lout = cell(rs, n - 1, co);
    long long lid = sqlite3_value_int64(rowset_cell(rs, n - 1, cid));
    int folded = say_decisions(&sb, &d, lq, lid, lout);
    free(d.last_words);
    sb_free(&d.failed);
    sb_free(&d.changes);
    if (folded)
        return xsb_detach(&sb);
    char *said = lout && bare_count(lout) ? lookup_answer(db, lid, rep) : NULL;
    sb_printf(&sb, "; the latest: %s (id %lld): %s%s%s", lq ? lq : "", lid, lout ? lout : "", said ? ", " : "",
              said ? said : "");
    free(said);
    return xsb_detach(&sb);
}
