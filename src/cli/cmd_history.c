/* benchdb history: the verdict history, and what changed between two
 * evaluations of one query (query/history.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/history_headline.h"
#include "query/history.h"
#include "query/saved.h"
#include "query/verify.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

struct history_args {
    int diff, verify, all, limit;
    struct query_path path;
    struct cli_limits limits;
    struct out_opts out;
};

static const struct cli_opt history_opts[] = {
    {"diff", 0, NULL, "compare two evaluations, ID1 and ID2", cli_opt_flag, offsetof(struct history_args, diff), 0,
     0},
    {"verify", 0, NULL, "run evaluations ID... again and compare them with\ntheir records (exit 0 only when all are "
     "identical)", cli_opt_flag, offsetof(struct history_args, verify), 0, 0},
    {"all", 0, NULL, "every evaluation: with --verify, or listed (lookups\ntoo)", cli_opt_flag, offsetof(struct history_args, all), 0, 0},
    {"limit", 'n', "N", "list only the last N evaluations (not with --diff\nor --verify)", cli_opt_int, offsetof(struct history_args, limit), 1,
     2147483647LL},
    CLI_OUTPUT_OPTIONS(struct history_args, out),
    CLI_OPT_QUERIES(struct history_args, path),
    CLI_OPT_LIMITS(struct history_args, limits),
    {0},
};

const struct cli_spec spec_history = {
    .name = "history",
    .store = 1,
    .synopsis = (const char *const[]){"history [OPTIONS] [NAME]", "history --diff [OPTIONS] ID1 ID2",
                                      "history --verify [OPTIONS] ID...|--all", NULL},
    .about = "List the recorded decisions (verdicts, gates and back-tests; --all: lookups\n"
             "recorded with --record or for a page too), newest last: id, when, query,\n"
             "the query text's short SHA-256, parameters, the one-line outcome and, for a\n"
             "rule judging a plan, whether it was pre-registered. NAME must be a saved\n"
             "query or a query with recorded evaluations.\n"
             "With --diff, compare two evaluations of the same query: whether the rule\n"
             "text, the parameters or the data (the archives in the store) changed (on\n"
             "stderr, or in the --envelope), and the result rows that differ (matched\n"
             "by the query's '-- key:' columns).\n"
             "With --verify, run recorded evaluations again on the store as it is, from\n"
             "their recorded text and parameters, and say per evaluation 'identical' or\n"
             "what differs: the rows (which), the data (the archives it saw, by their\n"
             "fingerprint), the schema it read (the definitions of its tables, views\n"
             "and the triggers deriving them), the rule's text now (the saved query of\n"
             "its name: --queries adds directories), benchdb's version. Each re-run\n"
             "is held to the limits below (--timeout, --max-rows, --max-result-bytes,\n"
             "--max-temp-bytes, --max-memory), which hold --verify's re-runs only: a\n"
             "listing or --diff runs no query, and refuses them, as --diff refuses\n"
             "--queries (it reads no saved query).\n",
    .opts = history_opts,
    .more = "Exit status: 0, or with --verify 0 only when every evaluation is\n"
            "identical and 1 when any differs or cannot be run again; 1 on a failure,\n"
            "2 on a usage error.\n",
    .max_args = -1,
};

/* NAME must be known: a saved query, or a query with evaluations; an
 * unknown NAME is refused as query and rule refuse it. */
static int check_name(struct db *db, const struct query_path *qp, const char *name, struct out_notes *rep)
{
    char *err = NULL, **recorded = NULL;
    struct saved_query **saved = NULL;
    int nrec = history_names(db, &recorded, &err), nsaved = 0, rc = EXIT_OK, known = 0;
    if (nrec >= 0)
        nsaved = saved_query_list(qp, &saved, &err);
    if (nrec < 0 || nsaved < 0) {
        bd_error("history: %s", err);
        rc = EXIT_FAIL;
        goto out;
    }
    const char **names = xcalloc((size_t)(nrec + nsaved) + 1, sizeof *names);
    int n = 0;
    for (int i = 0; i < nsaved; i++) {
        names[n++] = saved[i]->name;
        known |= strcmp(saved[i]->name, name) == 0;
    }
    for (int i = 0; i < nrec; i++) {
        int dup = 0;
        for (int k = 0; k < nsaved; k++)
            dup |= strcmp(saved[k]->name, recorded[i]) == 0;
        if (!dup)
            names[n++] = recorded[i];
        known |= 2 * (strcmp(recorded[i], name) == 0);
    }
    if (!known) {
        char *m = suggest_unknown("saved query", "saved queries", name, names, (size_t)n);
        rc = cli_usage_error_see("queries", "history: %s", m);
        free(m);
    } else if (!(known & 2)) {
        out_note(rep, "no evaluation of %s is recorded", name);
        rep->leading = rep->nnotes; /* the answer, before the empty table */
    }
    free(names);
out:
    saved_query_list_free(saved, nsaved > 0 ? nsaved : 0);
    history_names_free(recorded, nrec > 0 ? nrec : 0);
    free(err);
    return rc;
}

static int list(struct db *db, const struct history_args *a, const char *name)
{
    struct rowset rs = {0};
    struct out_notes rep = {0};
    char *err = NULL;
    int rc = name ? check_name(db, &a->path, name, &rep) : EXIT_OK;
    long long lookups = 0, older = 0;
    if (rc == EXIT_OK && history_list(db, name, a->limit, !a->all, &lookups, &older, &rs, &err)) {
        bd_error("history: %s", err);
        rc = EXIT_FAIL;
    }
    /* An empty history says so first, not with a bare header. */
    if (rc == EXIT_OK && !name && rs.nrow == 0) {
        out_note(&rep, lookups ? "no decision is recorded (only lookups, below)"
                               : "no evaluation is recorded yet: 'benchdb query NAME' records one of a query "
                                 "with an -- outcome: column");
        rep.leading = rep.nnotes;
    }
    /* What the listed evaluations say, first: on stderr in a terminal's
     * table, bold in Markdown, the envelope's headline; CSV and bare JSON
     * stay the rows alone. */
    struct out_notes said = {0}; /* a headline line that does not parse, warned of after the answer */
    char *line = rc == EXIT_OK && rs.nrow &&
                         (a->out.format == OUT_TABLE || a->out.format == OUT_MARKDOWN || a->out.envelope)
                     ? history_headline(db, &rs, older, &said)
                     : NULL;
    if (line)
        out_answer(&rep, &a->out, line);
    for (int i = 0; i < said.nnotes; i++) {
        out_note(&rep, "%s", said.notes[i]);
        rep.leading = rep.nnotes; /* before the rows, beside the answer it concerns */
    }
    out_notes_free(&said);
    free(line);
    /* The history is of decisions; lookups kept on purpose (--record, or
     * what a page was drawn from) are counted, not hidden silently. */
    if (rc == EXIT_OK && lookups)
        out_note(&rep, "%lld lookup%s not listed (queries without an -- outcome:, recorded with --record or for a "
                          "page): 'benchdb history --all' lists every evaluation, 'benchdb history QUERY' one query's",
                    lookups, lookups == 1 ? "" : "s");
    if (rc == EXIT_OK && out_notes_print(&rep, &rs, &a->out, stdout, stderr))
        rc = EXIT_FAIL;
    rowset_free(&rs);
    out_notes_free(&rep);
    free(err);
    return rc;
}

static void describe_diff(const struct history_diff *d, struct out_notes *rep)
{
    out_note(rep, "evaluations %lld (%s) and %lld (%s) of %s", d->id[0], d->when[0], d->id[1], d->when[1], d->query);
    /* The answer, second: whether what it found changed. */
    if (strcmp(d->outcome[0], d->outcome[1]) == 0)
        out_note(rep, "outcome:    same (%s)", d->outcome[0]);
    else
        out_note(rep, "outcome:    %s -> %s", d->outcome[0], d->outcome[1]);
    int text_same = strcmp(d->sha256[0], d->sha256[1]) == 0, data_same = strcmp(d->fingerprint[0], d->fingerprint[1]) == 0;
    if (text_same)
        out_note(rep, "rule text:  same (sha256 %.12s)", d->sha256[0]);
    else
        out_note(rep, "rule text:  differs (sha256 %.12s -> %.12s)", d->sha256[0], d->sha256[1]);
    out_note(rep, "parameters: %s", *d->params_changes ? d->params_changes : "same");
    if (data_same)
        out_note(rep, "data:       same (%lld archives, fingerprint %.12s)", d->archives[0], d->fingerprint[0]);
    else
        out_note(rep, "data:       differs (%lld -> %lld archives, fingerprint %.12s -> %.12s)", d->archives[0],
                    d->archives[1], d->fingerprint[0], d->fingerprint[1]);
    out_note(rep, "rows:       %zu of %zu differ", d->rows_changed, d->rows_total);
    out_field_text(rep, "query", d->query);
    out_field_bool(rep, "text_same", text_same);
    out_field_text(rep, "params_changed", *d->params_changes ? d->params_changes : NULL);
    out_field_bool(rep, "data_same", data_same);
    out_field_int(rep, "rows_changed", (long long)d->rows_changed);
    out_field_int(rep, "rows_total", (long long)d->rows_total);
}

static int parse_id(const char *s, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v < 1)
        return -1;
    *out = v;
    return 0;
}

static int diff(struct db *db, const struct history_args *a, long long id1, long long id2)
{
    struct history_diff d;
    char *err = NULL;
    int rc = history_diff(db, id1, id2, &d, &err);
    if (rc != EXIT_OK)
        bd_error("history: %s", err);
    else {
        struct out_notes rep = {.notes_first = 1};
        describe_diff(&d, &rep);
        /* A table of no rows says nothing a person needs. */
        int show_rows = d.rows_changed || (a->out.format != OUT_TABLE && a->out.format != OUT_VERTICAL);
        if (out_notes_print(&rep, show_rows || a->out.envelope ? &d.rows : NULL, &a->out, stdout, stderr))
            rc = EXIT_FAIL;
        out_notes_free(&rep);
    }
    history_diff_free(&d);
    free(err);
    return rc;
}

static int verify(struct db *db, const struct history_args *a, const long long *ids, int nids)
{
    double timeout;
    struct rowset_limits lim;
    int rc = cli_limits_resolve("history", &a->limits, &timeout, &lim);
    if (rc != EXIT_OK)
        return rc;
    cli_limits_warn_unapplied("history", &a->limits, db);
    struct rowset rs = {0};
    struct verify_counts n;
    char *err = NULL;
    if (history_verify(db, &a->path, ids, nids, a->all, timeout, &lim, &rs, &n, &err)) {
        bd_error("history: %s", err);
        free(err);
        rowset_free(&rs);
        return EXIT_FAIL;
    }
    struct out_notes rep = {.notes_first = 1}; /* the count is the answer: before the rows */
    if (n.identical + n.differ == 0) /* --all of a store that holds none: said, not a bare header */
        out_note(&rep, "no evaluation is recorded: nothing to verify");
    else if (n.since_only && n.since_only == n.differ) /* rows that moved as the data grew, or were edited: said */
        out_note(&rep, "verified %lld evaluation%s: %lld identical, %lld not, %sin its rows alone, with archives "
                       "ingested since (its own unchanged)",
                 n.identical + n.differ, n.identical + n.differ == 1 ? "" : "s", n.identical, n.differ,
                 n.differ == 1 ? "" : "each ");
    else if (n.since_only)
        out_note(&rep, "verified %lld evaluation%s: %lld identical, %lld not (%lld of them in %s rows alone, with "
                       "archives ingested since, %s own unchanged)",
                 n.identical + n.differ, n.identical + n.differ == 1 ? "" : "s", n.identical, n.differ, n.since_only,
                 n.since_only == 1 ? "its" : "their", n.since_only == 1 ? "its" : "their");
    else
        out_note(&rep, "verified %lld evaluation%s: %lld identical, %lld not", n.identical + n.differ,
                 n.identical + n.differ == 1 ? "" : "s", n.identical, n.differ);
    out_field_int(&rep, "identical", n.identical);
    out_field_int(&rep, "differ", n.differ);
    /* A table shows what a person reads first; CSV and JSON hold every
     * comparison. */
    static char *const shown[] = {"id", "query", "result", "differences"};
    struct out_opts out = a->out;
    out.show = shown;
    out.nshow = 4;
    int none = n.identical + n.differ == 0 && out.format == OUT_TABLE && !out.envelope;
    rc = out_notes_print(&rep, none ? NULL : &rs, &out, stdout, stderr) ? EXIT_FAIL : n.differ ? EXIT_FAIL : EXIT_OK;
    if (n.lost && n.not_tried) { /* once, as ingest says it, not a failure per evaluation left */
        bd_error("history: the connection to the store was lost: %lld evaluation%s not verified (the first: %lld); "
                 "run it again once the server is back",
                 n.not_tried, n.not_tried == 1 ? "" : "s", n.first_not_tried);
        rc = EXIT_FAIL;
    } else if (n.lost) {
        bd_error("history: the connection to the store was lost");
        rc = EXIT_FAIL;
    }
    out_notes_free(&rep);
    rowset_free(&rs);
    return rc;
}

int cmd_history(struct cli *cli, int argc, char **argv)
{
    struct history_args a = {.limit = -1};
    out_opts_init(&a.out);
    int first, rc = EXIT_USAGE;
    long long id1 = 0, id2 = 0, *ids = NULL;
    struct db *db = NULL;
    if (cli_parse(&spec_history, argc, argv, &a, &first) || cli_output_ready("history", &a.out))
        goto out;
    int nargs = argc - first;
    if (a.diff + a.verify > 1 || (a.all && a.diff)) {
        bd_usage_error("history", "history: %s", a.all && a.diff ? "--all goes with --verify or a listing"
                                                                  : "--diff and --verify go one at a time");
        goto out;
    }
    if ((a.diff || a.verify) && a.limit >= 0) {
        /* It lists the last N; what --diff and --verify take are named. */
        bd_usage_error("history", "history: --limit lists the last N evaluations: not with %s",
                       a.diff ? "--diff" : "--verify (give the ids to run again)");
        goto out;
    }
    /* Options that would do nothing: refused, not ignored. */
    const char *limit = cli_limits_given(&a.limits);
    if (limit && !a.verify) {
        bd_usage_error("history", "history: %s holds the queries --verify runs again; %s runs none", limit,
                       a.diff ? "--diff" : "a listing");
        goto out;
    }
    if (a.path.n && a.diff) {
        bd_usage_error("history", "history: --queries: --diff compares two recorded evaluations and reads no saved "
                                  "query");
        goto out;
    }
    if (a.verify && (a.all ? nargs > 0 : nargs == 0)) {
        bd_usage_error("history", "history: --verify needs evaluation ids, or --all (not both)");
        goto out;
    }
    if (a.verify && nargs) {
        ids = xcalloc((size_t)nargs, sizeof *ids);
        for (int i = 0; ids && i < nargs; i++)
            if (parse_id(argv[first + i], &ids[i])) {
                bd_usage_error("history", "history: --verify %s: expected an evaluation id (a positive integer)",
                               argv[first + i]);
                goto out;
            }
    }
    if (a.all && !a.verify && nargs == 1) {
        /* NAME lists every evaluation of it, lookups too: --all would do nothing */
        bd_usage_error("history", "history: --all lists every query's evaluations, lookups too; '%s' lists every "
                                  "evaluation of %s already (give one or the other)", argv[first], argv[first]);
        goto out;
    }
    if (!a.diff && !a.verify && nargs > 1) {
        bd_usage_error("history", "history: unexpected argument '%s'", argv[first + 1]);
        goto out;
    }
    if (a.diff && nargs != 2) {
        bd_usage_error("history", "history: --diff needs two evaluation ids");
        goto out;
    }
    if (a.diff && (parse_id(argv[first], &id1) || parse_id(argv[first + 1], &id2) || id1 == id2)) {
        bd_usage_error("history", "history: --diff %s %s: expected two different evaluation ids (positive integers)",
                       argv[first], argv[first + 1]);
        goto out;
    }
    query_path_add_env(&a.path);
    rc = EXIT_FAIL;
    if (cli_connect_store(cli, STORE_READ, &db))
        goto out;
    rc = a.verify ? verify(db, &a, ids, nargs)
         : a.diff ? diff(db, &a, id1, id2)
                  : list(db, &a, nargs ? argv[first] : NULL);
out:
    free(ids);
    db_close(db);
    query_path_free(&a.path);
    return rc;
}
