/* Back-testing a gate: the gate's statement and the reference's, composed
 * with the scoring below into one saved query (query/backtest.h). */
#include "query/backtest.h"
#include "query/param_type.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The scoring, after the CTEs bt_gate and bt_reference. Histories are
 * matched by name (host, benchmark, params, metric, variant) and runs by
 * seq, which the gate and the reference number alike. An alert is a hit
 * when it comes within `within` runs of the latest reference regression at
 * or before it; a reference regression is detected by the hits it
 * receives, its delay the runs to the first. */
static const char *const scoring[] = {
    /* The reference regressions at judged runs, with the gate's row there
     * (one pass over the gate's rows, looking into the few regressions). */
    "bt_event AS (\n"
    "  SELECT j.host, j.benchmark, j.params, j.metric, j.variant, j.seq, j.run, j.revision, j.statistic,\n"
    "         j.\"limit\"\n"
    "  FROM bt_gate AS j\n"
    "  WHERE (j.host, j.benchmark, j.params, j.metric, j.variant, j.seq) IN\n"
    "        (SELECT host, benchmark, params, metric, variant, seq FROM bt_reference WHERE kind = 'regression')\n"
    "),\n",
    "bt_alert AS (\n"
    "  SELECT j.*,\n"
    "         (SELECT max(e.seq) FROM bt_event AS e\n"
    "          WHERE e.host = j.host AND e.benchmark = j.benchmark AND e.params = j.params\n"
    "            AND e.metric = j.metric AND e.variant = j.variant AND e.seq <= j.seq) AS event_seq\n"
    "  FROM bt_gate AS j\n"
    "  WHERE j.alert = 'regression'\n"
    "),\n",
    "bt_hit AS (\n"
    "  SELECT a.*, CASE WHEN a.seq < a.event_seq + :within THEN 1 ELSE 0 END AS hit\n"
    "  FROM bt_alert AS a\n"
    "),\n",
    "bt_detect AS (\n"
    "  SELECT e.*,\n"
    "         (SELECT min(h.seq) FROM bt_hit AS h\n"
    "          WHERE h.host = e.host AND h.benchmark = e.benchmark AND h.params = e.params\n"
    "            AND h.metric = e.metric AND h.variant = e.variant AND h.hit = 1 AND h.event_seq = e.seq)\n"
    "           AS first_alert\n"
    "  FROM bt_event AS e\n"
    "),\n",
    /* Runs judged (the gate had limits: lower or upper) and runs without
     * limits (too few runs before them, no spread), counted apart for the
     * histories reported one by one. */
    "bt_span AS (\n"
    "  SELECT host, benchmark, params, metric, variant,\n"
    "         count(*) FILTER (WHERE lower IS NOT NULL OR upper IS NOT NULL) AS runs,\n"
    "         count(*) FILTER (WHERE lower IS NULL AND upper IS NULL) AS runs_without_limits\n"
    "  FROM bt_gate\n"
    "  WHERE (host, benchmark, params, metric, variant) IN\n"
    "        (SELECT host, benchmark, params, metric, variant FROM bt_event\n"
    "         UNION SELECT host, benchmark, params, metric, variant FROM bt_alert)\n"
    "  GROUP BY host, benchmark, params, metric, variant\n"
    "),\n",
    "bt_event_count AS (\n"
    "  SELECT host, benchmark, params, metric, variant, count(*) AS events, count(first_alert) AS detected,\n"
    "         sum(first_alert - seq) AS delay_sum, max(first_alert - seq) AS max_delay\n"
    "  FROM bt_detect\n"
    "  GROUP BY host, benchmark, params, metric, variant\n"
    "),\n",
    "bt_alert_count AS (\n"
    "  SELECT host, benchmark, params, metric, variant, count(*) AS alerts,\n"
    "         count(*) FILTER (WHERE hit = 0) AS false_alarms\n"
    "  FROM bt_hit\n"
    "  GROUP BY host, benchmark, params, metric, variant\n"
    "),\n",
    "bt_history AS (\n"
    "  SELECT s.host, s.benchmark, s.params, s.metric, s.variant, s.runs, s.runs_without_limits,\n"
    "         coalesce(e.events, 0) AS events, coalesce(e.detected, 0) AS detected, e.delay_sum, e.max_delay,\n"
    "         coalesce(a.alerts, 0) AS alerts, coalesce(a.false_alarms, 0) AS false_alarms\n"
    "  FROM bt_span AS s\n"
    "  LEFT JOIN bt_event_count AS e ON e.host = s.host AND e.benchmark = s.benchmark AND e.params = s.params\n"
    "                               AND e.metric = s.metric AND e.variant = s.variant\n"
    "  LEFT JOIN bt_alert_count AS a ON a.host = s.host AND a.benchmark = s.benchmark AND a.params = s.params\n"
    "                               AND a.metric = s.metric AND a.variant = s.variant\n"
    "),\n",
    "bt_total AS (\n"
    "  SELECT (SELECT count(*) FROM bt_gate WHERE lower IS NOT NULL OR upper IS NOT NULL) AS runs,\n"
    "         (SELECT count(*) FROM bt_gate WHERE lower IS NULL AND upper IS NULL) AS runs_without_limits,\n"
    "         coalesce(sum(events), 0) AS events,\n"
    "         coalesce(sum(detected), 0) AS detected, sum(delay_sum) AS delay_sum, max(max_delay) AS max_delay,\n"
    "         coalesce(sum(alerts), 0) AS alerts, coalesce(sum(false_alarms), 0) AS false_alarms\n"
    "  FROM bt_history\n"
    "),\n",
    "bt_rows AS (\n"
    "  SELECT 'total' AS kind, CAST(NULL AS TEXT) AS host, CAST(NULL AS TEXT) AS benchmark,\n"
    "         CAST(NULL AS TEXT) AS params, CAST(NULL AS TEXT) AS metric, CAST(NULL AS TEXT) AS variant,\n"
    "         CAST(NULL AS BIGINT) AS seq, CAST(NULL AS TEXT) AS run, CAST(NULL AS TEXT) AS revision,\n"
    "         CAST(NULL AS DOUBLE PRECISION) AS statistic, CAST(NULL AS DOUBLE PRECISION) AS \"limit\",\n"
    "         CAST(NULL AS TEXT) AS verdict, CAST(NULL AS BIGINT) AS delay,\n"
    "         runs, runs_without_limits, events, detected, alerts, false_alarms,\n"
    "         CASE WHEN events > 0 THEN CAST(detected AS DOUBLE PRECISION) / events END AS recall,\n"
    "         CASE WHEN alerts > 0 THEN CAST(alerts - false_alarms AS DOUBLE PRECISION) / alerts END AS precision,\n"
    "         CASE WHEN runs > 0 THEN CAST(100 * false_alarms AS DOUBLE PRECISION) / runs END AS false_per_100,\n"
    "         CASE WHEN detected > 0 THEN CAST(delay_sum AS DOUBLE PRECISION) / detected END AS mean_delay,\n"
    "         max_delay,\n"
    "         CAST(detected AS TEXT) || ' of ' || CAST(events AS TEXT)\n"
    "           || CASE WHEN events = 1 THEN ' reference regression' ELSE ' reference regressions' END\n"
    "           || ' detected; ' || CAST(alerts AS TEXT) || CASE WHEN alerts = 1 THEN ' alert, ' ELSE ' alerts, ' END\n"
    "           || CAST(false_alarms AS TEXT) || ' false, in '\n"
    "           || CAST(runs AS TEXT) || CASE WHEN runs = 1 THEN ' run' ELSE ' runs' END || ' judged'\n"
    "           || CASE WHEN runs_without_limits > 0\n"
    "                   THEN ', ' || CAST(runs_without_limits AS TEXT)\n"
    "                        || CASE WHEN runs_without_limits = 1 THEN ' run' ELSE ' runs' END || ' without limits'\n"
    "                   ELSE '' END AS summary\n"
    "  FROM bt_total\n"
    "  UNION ALL\n"
    "  SELECT 'history', host, benchmark, params, metric, variant, NULL, NULL, NULL, NULL, NULL, NULL, NULL,\n"
    "         runs, runs_without_limits, events, detected, alerts, false_alarms,\n"
    "         CASE WHEN events > 0 THEN CAST(detected AS DOUBLE PRECISION) / events END,\n"
    "         CASE WHEN alerts > 0 THEN CAST(alerts - false_alarms AS DOUBLE PRECISION) / alerts END,\n"
    "         CASE WHEN runs > 0 THEN CAST(100 * false_alarms AS DOUBLE PRECISION) / runs END,\n"
    "         CASE WHEN detected > 0 THEN CAST(delay_sum AS DOUBLE PRECISION) / detected END,\n"
    "         max_delay, NULL\n"
    "  FROM bt_history\n"
    "  UNION ALL\n"
    "  SELECT 'alert', host, benchmark, params, metric, variant, seq, run, revision, statistic, \"limit\",\n"
    "         CASE WHEN hit = 1 THEN 'hit' ELSE 'false alarm' END, CASE WHEN hit = 1 THEN seq - event_seq END,\n"
    "         NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL\n"
    "  FROM bt_hit\n"
    "  UNION ALL\n"
    "  SELECT 'missed', host, benchmark, params, metric, variant, seq, run, revision, statistic, \"limit\",\n"
    "         'missed', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL\n"
    "  FROM bt_detect\n"
    "  WHERE first_alert IS NULL\n"
    ")\n"
    "SELECT * FROM bt_rows\n"
    "ORDER BY CASE kind WHEN 'total' THEN 0 WHEN 'history' THEN 1 ELSE 2 END,\n"
    "         host, benchmark, params, metric, variant, seq;\n",
};

const char *backtest_default_reference(struct db *db)
{
    struct db_stmt *st;
    int found = 0;
    if (db_prepare(db, "SELECT 1 FROM event WHERE name = 'injected-step' LIMIT 1", &st) == SQLITE_OK) {
        found = db_step(st) == SQLITE_ROW;
        db_finalize(st);
    }
    return found ? "injected-steps" : "regressions";
}

char *backtest_normalize_time(const char *time) { return param_time_normalize(time); }

/* Length of sql without a final top-level ORDER BY clause: in a CTE the
 * order of rows means nothing (unless a LIMIT follows, which is kept), and
 * a gate orders every run of every history, the costliest sort of a
 * back-test. Quotes, comments and parentheses are skipped over. */
static size_t without_final_order_by(const char *sql, size_t n)
{
    size_t cut = n, depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = sql[i];
        if (c == '\'' || c == '"' || c == '`' || c == '[') {
            char close = c == '[' ? ']' : c;
            for (i++; i < n && sql[i] != close; i++)
                ;
        } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
            while (i < n && sql[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
            for (i += 2; i + 1 < n && !(sql[i] == '*' && sql[i + 1] == '/'); i++)
                ;
            i++;
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            depth -= depth > 0;
        } else if (depth == 0 && (i == 0 || !(isalnum((unsigned char)sql[i - 1]) || sql[i - 1] == '_'))) {
            if (strncasecmp(sql + i, "ORDER", 5) == 0 && isspace((unsigned char)sql[i + 5])) {
                size_t j = i + 5;
                while (j < n && isspace((unsigned char)sql[j]))
                    j++;
                if (strncasecmp(sql + j, "BY", 2) == 0 && (j + 2 == n || !isalnum((unsigned char)sql[j + 2])))
                    cut = i;
            } else if (cut < n && (strncasecmp(sql + i, "LIMIT", 5) == 0) &&
                       (i + 5 == n || !isalnum((unsigned char)sql[i + 5]))) {
                return n; /* ORDER BY ... LIMIT: the order matters */
            }
        }
    }
    return cut;
}

/* The statement of a saved query without its final ';', blanks and final
 * ORDER BY. */
static void put_statement(struct strbuf *sb, const struct saved_query *q)
{
    size_t n = strlen(q->sql);
    while (n && (q->sql[n - 1] == ';' || isspace((unsigned char)q->sql[n - 1])))
        n--;
    n = without_final_order_by(q->sql, n);
    while (n && isspace((unsigned char)q->sql[n - 1]))
        n--;
    sb_append(sb, q->sql, n);
    sb_putc(sb, '\n');
}

static void put_param(struct strbuf *sb, const struct saved_param *p)
{
    sb_printf(sb, "-- param: %s", p->name);
    if (p->has_default)
        sb_printf(sb, " = %s", p->def);
    sb_printf(sb, "  %s\n", p->description && *p->description ? p->description : "(no description)");
    if (p->type.type != PARAM_TEXT || p->type.names) {
        char *t = param_type_describe(&p->type);
        sb_printf(sb, "-- type: %s = %s\n", p->name, t);
        free(t);
    }
}

/* Whether a parameter of the reference can share the gate's of its name. */
static int same_param(const struct saved_param *a, const struct saved_param *b)
{
    if (a->has_default != b->has_default)
        return 0;
    return !a->has_default || strcmp(a->def, b->def) == 0;
}

static const char *param_default(const struct saved_param *p)
{
    return p->has_default ? p->def : "(required)";
}

/* 0 when gate g and reference r compose into a back-test, else -1 with
 * why in *err. */
static int check_composable(const struct saved_query *g, const struct saved_query *r, char **err)
{
    const struct saved_param *scope = saved_query_param(g, "scope");
    int every = 0;
    for (int k = 0; scope && k < scope->type.nchoices; k++)
        every |= strcmp(scope->type.choices[k], "every") == 0;
    if (!every) {
        bd_fail(err, "backtest: %s (%s) is not a gate: it needs a parameter 'scope' with the choice 'every' "
                     "(every run judged against the runs before it; docs/queries.md)", g->name, g->source);
        return -1;
    }
    if (saved_query_param(g, "within") || saved_query_param(r, "within")) {
        bd_fail(err, "backtest: %s declares a parameter 'within', which the back-test's scoring uses",
                saved_query_param(g, "within") ? g->name : r->name);
        return -1;
    }
    for (int i = 0; i < r->nparams; i++) {
        const struct saved_param *gp = saved_query_param(g, r->params[i].name);
        if (gp && !same_param(gp, &r->params[i])) {
            bd_fail(err, "backtest: the parameter '%s' is %s's (default %s) and %s's (default %s); a parameter both "
                         "declare must have one default", gp->name, g->name, param_default(gp), r->name,
                    param_default(&r->params[i]));
            return -1;
        }
    }
    return 0;
}

/* The composed query's header: its name, parameters (the gate's, then
 * the reference's it lacks, then within), verdict, chart, columns,
 * headlines and where it came from. */
static void put_header(struct strbuf *sb, const struct saved_query *g, const struct saved_query *r)
{
    char gsha[65], rsha[65];
    sha256_hex_of(g->text, strlen(g->text), gsha);
    sha256_hex_of(r->text, strlen(r->text), rsha);

    sb_printf(sb, "-- name: backtest-%s\n", g->name);
    sb_printf(sb, "-- summary: %s evaluated as of each past run, seeing only the runs before it, scored against %s\n",
              g->name, r->name);
    for (int i = 0; i < g->nparams; i++) {
        if (strcmp(g->params[i].name, "scope") == 0)
            sb_puts(sb, "-- param: scope = every  fixed: every run is judged against the runs before it\n"
                         "-- type: scope = choice of every\n");
        else
            put_param(sb, &g->params[i]);
    }
    for (int i = 0; i < r->nparams; i++)
        if (!saved_query_param(g, r->params[i].name))
            put_param(sb, &r->params[i]);
    sb_puts(sb, "-- param: within = 5  an alert up to this many runs after a reference regression (counting it) "
                 "detects it\n"
                 "-- type: within = integer in [1, 1000000]\n"
                 "-- verdict: summary\n"
                 "-- key: kind, host, benchmark, params, metric, variant, seq\n");
    /* The report's view (docs/report.md): every judged run of every
     * history, drawn from the gate itself (scope = every, the same
     * parameters) with its limits and alerts, and the back-test's own rows
     * on it: hits, false alarms and missed reference regressions, each
     * reference regression a dotted line (delay runs before its hit). */
    sb_printf(sb, "-- chart: series from=%s group=host,benchmark,params,metric colour=variant x=seq tick=started_at "
                   "y=value lower=lower upper=upper alert=alert unit=unit mark=verdict "
                   "match=host,benchmark,params,metric,variant,seq lag=delay flag=\"missed,false alarm\" "
                   "xlabel=\"run, in order (dates in UTC)\" "
                   "title=\"Each history as %s judged it, run by run: hits, false alarms and missed regressions "
                   "(histories with a miss or a false alarm first)\"\n",
              g->name, g->name);
    sb_puts(sb, "-- columns: kind, host, benchmark, params, run, revision, verdict, delay, runs, runs_without_limits, "
                 "events, detected, false_alarms, recall, precision\n");
    sb_printf(sb, "-- headline[kind=total, events>0]: %s would have caught {detected} of {events:reference "
                   "regression/reference regressions} (recall {recall:share}) with {false_alarms:false alarm/false "
                   "alarms} in {runs:run/runs} judged[, {runs_without_limits:run/runs} without limits][; "
                   "{count(kind=missed):missed/missed}]\n", g->name);
    sb_printf(sb, "-- headline[kind=total]: no reference regression to catch; %s raised {alerts:alert/alerts} in "
                   "{runs:run/runs} judged[, {runs_without_limits:run/runs} without limits]\n--\n", g->name);
    sb_printf(sb, "-- Composed by 'benchdb backtest' from the saved queries %s (%s, sha256 %s)\n", g->name, g->source,
              gsha);
    sb_printf(sb, "-- and %s (%s, sha256 %s); docs/queries.md, \"Back-testing a gate\".\n", r->name, r->source, rsha);
}

struct saved_query *backtest_compose(const struct query_path *qp, const char *gate, const char *reference,
                                     char **err)
{
    int unknown = 0;
    struct saved_query *g = saved_query_find(qp, gate, &unknown, err);
    if (!g)
        return NULL;
    struct saved_query *r = saved_query_find(qp, reference, &unknown, err);
    if (!r) {
        saved_query_free(g);
        return NULL;
    }
    struct strbuf sb = {0};
    struct saved_query *out = NULL;
    if (check_composable(g, r, err) == 0) {
        put_header(&sb, g, r);
        /* Both computed once: PostgreSQL would otherwise inline the reference
         * (used once) into bt_event's IN and, estimating the gate's CTE at one
         * row, run it again for each of the gate's rows (30 s instead of 0.1 s
         * for a year of 12 histories). */
        sb_puts(&sb, "WITH\nbt_gate AS MATERIALIZED (\n");
        put_statement(&sb, g);
        sb_puts(&sb, "),\nbt_reference AS MATERIALIZED (\n");
        put_statement(&sb, r);
        sb_puts(&sb, "),\n");
        for (size_t k = 0; k < sizeof scoring / sizeof *scoring; k++)
            sb_puts(&sb, scoring[k]);
        /* Checked once here: the buffer's error is sticky, so the composed
         * SQL is never run with a clause missing (util/strbuf.h). */
        out = saved_query_parse(xsb_detach(&sb), "backtest", 0, err);
    }
    sb_free(&sb);
    saved_query_free(g);
    saved_query_free(r);
    return out;
}

/* ---- output ---------------------------------------------------------------- */

static int column(const struct rowset *rs, const char *name)
{
    for (int c = 0; c < rs->ncol; c++)
        if (strcmp(rs->names[c], name) == 0)
            return c;
    return -1;
}

static int row_kind_in(const struct rowset *rs, size_t row, const char *a, const char *b)
{
    int k = column(rs, "kind");
    const char *t = k < 0 ? NULL : (const char *)sqlite3_value_text(rowset_cell(rs, row, k));
    return t && (strcmp(t, a) == 0 || (b && strcmp(t, b) == 0));
}

/* The rows of kind a or b, with the named columns: a copy, owned by out. */
static int pick(const struct rowset *rs, const char *a, const char *b, const char *const *cols, int ncols,
                struct rowset *out)
{
    memset(out, 0, sizeof *out);
    int idx[32];
    out->names = xcalloc((size_t)ncols + 1, sizeof *out->names);
    if (!out->names || ncols > 32)
        return -1;
    out->ncol = ncols;
    for (int c = 0; c < ncols; c++) {
        idx[c] = column(rs, cols[c]);
        out->names[c] = xstrdup(cols[c]);
        if (idx[c] < 0 || !out->names[c])
            return -1;
    }
    size_t n = 0;
    for (size_t r = 0; r < rs->nrow; r++)
        n += (size_t)row_kind_in(rs, r, a, b);
    out->cells = xcalloc(n * (size_t)ncols + 1, sizeof *out->cells);
    if (!out->cells)
        return -1;
    out->cap = n;
    for (size_t r = 0; r < rs->nrow; r++) {
        if (!row_kind_in(rs, r, a, b))
            continue;
        sqlite3_value **row = out->cells + out->nrow * (size_t)ncols;
        for (int c = 0; c < ncols; c++) {
            row[c] = sqlite3_value_dup(rowset_cell(rs, r, idx[c]));
            if (!row[c]) {
                while (c-- > 0) /* the row is not counted: free what it holds */
                    sqlite3_value_free(row[c]);
                return -1;
            }
        }
        out->nrow++;
    }
    return 0;
}

int backtest_print(const struct rowset *rows, const struct out_opts *o, FILE *out)
{
    if (o->format == OUT_CSV || o->format == OUT_JSON)
        return rowset_print(rows, o, out);
    static const char *const summary[] = {"kind",   "host",      "benchmark",     "params",     "metric",
                                          "variant", "runs",     "runs_without_limits", "events", "detected",
                                          "alerts", "false_alarms", "recall",  "precision",  "false_per_100",
                                          "mean_delay", "max_delay"};
    static const char *const alerts[] = {"kind", "host", "benchmark", "params", "metric", "variant", "seq", "run",
                                         "revision", "statistic", "limit", "verdict", "delay"};
    struct rowset a = {0}, b = {0};
    int rc = -1;
    if (pick(rows, "total", "history", summary, (int)(sizeof summary / sizeof *summary), &a) ||
        pick(rows, "alert", "missed", alerts, (int)(sizeof alerts / sizeof *alerts), &b))
        goto out;
    if (rowset_print(&a, o, out))
        goto out;
    if (b.nrow) {
        fputc('\n', out);
        if (rowset_print(&b, o, out))
            goto out;
    }
    rc = 0;
out:
    rowset_free(&a);
    rowset_free(&b);
    return rc;
}

static double num_or_nan(const struct rowset *rs, size_t row, const char *name)
{
    int c = column(rs, name);
    if (c < 0 || sqlite3_value_type(rowset_cell(rs, row, c)) == SQLITE_NULL)
        return NAN;
    return sqlite3_value_double(rowset_cell(rs, row, c));
}

char *backtest_sentence(const struct rowset *rows, const char *gate)
{
    for (size_t r = 0; r < rows->nrow; r++) {
        if (!row_kind_in(rows, r, "total", NULL))
            continue;
        long long events = (long long)num_or_nan(rows, r, "events"), alerts = (long long)num_or_nan(rows, r, "alerts");
        long long det = (long long)num_or_nan(rows, r, "detected"), fa = (long long)num_or_nan(rows, r, "false_alarms");
        long long runs = (long long)num_or_nan(rows, r, "runs");
        double nl = num_or_nan(rows, r, "runs_without_limits");
        long long no_limits = isnan(nl) ? 0 : (long long)nl;
        struct strbuf sb = {0};
        sb_printf(&sb, "%s would have raised %lld alert%s in %lld run%s judged", gate, alerts, alerts == 1 ? "" : "s",
                  runs, runs == 1 ? "" : "s");
        if (no_limits) /* the first nights of a history, say: counted apart, in no rate */
            sb_printf(&sb, ", %lld run%s without limits", no_limits, no_limits == 1 ? "" : "s");
        sb_puts(&sb, ": ");
        if (events)
            sb_printf(&sb, "%lld of %lld reference regression%s caught (recall %.2f", det, events,
                      events == 1 ? "" : "s", num_or_nan(rows, r, "recall"));
        else
            sb_puts(&sb, "no reference regression to catch (recall undefined");
        if (alerts)
            sb_printf(&sb, ", precision %.2f)", num_or_nan(rows, r, "precision"));
        else
            sb_puts(&sb, ", precision undefined)");
        if (runs)
            sb_printf(&sb, ", %lld false alarm%s (%.3g per 100 runs judged)", fa, fa == 1 ? "" : "s",
                      num_or_nan(rows, r, "false_per_100"));
        else /* nothing judged (e.g. --since after the last run): no rate to give */
            sb_puts(&sb, ", 0 false alarms (per 100 runs judged undefined)");
        if (det) {
            double mean = num_or_nan(rows, r, "mean_delay");
            sb_printf(&sb, ", detected %.2g run%s late on average (at most %lld)", mean, mean == 1 ? "" : "s",
                      (long long)num_or_nan(rows, r, "max_delay"));
        }
        return xsb_detach(&sb);
    }
    return xstrdup("");
}
