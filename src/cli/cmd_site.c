/* benchdb site DIR: a static site of the whole store (src/report/site*.c,
 * docs/report.md "A site of the store"): options, the store read-only,
 * and the one line saying what was written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/evaluate.h"
#include "query/saved.h"
#include "report/site.h"

struct site_args {
    struct params params;
    struct query_path path;
    int quiet;
};

static const struct cli_opt site_opts[] = {
    CLI_OPT_PARAM(struct site_args, params, "regressions' window, max_pvalue or min_magnitude:\nhow change "
                                            "points are found (repeatable)"),
    {"quiet", 'q', NULL, "no progress, no summary line", cli_opt_flag, offsetof(struct site_args, quiet), 0, 0},
    CLI_OPT_QUERIES(struct site_args, path),
    {0},
};

const struct cli_spec spec_site = {
    .name = "site",
    .store = 1,
    .synopsis = (const char *const[]){"site [OPTIONS] DIR", NULL},
    .about = "Write a static site of the whole store into DIR: index.html (open\n"
             "regressions first, the latest verdict of each query, the plans and hosts,\n"
             "every history with a sparkline), a page per history (plan, host, cell and\n"
             "metric: its runs in order, its change points as the saved query regressions\n"
             "finds them, the runs' revisions) and a page per recorded evaluation (the\n"
             "report page). No script, nothing fetched: it opens from file:// and from\n"
             "any static host. A second run rewrites only the pages whose content\n"
             "changed, removes those it no longer makes, and says how many.\n",
    .opts = site_opts,
    .more = "Example:\n"
            "  benchdb site site/ && xdg-open site/index.html\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "missing the directory to write the site into",
};

/* regressions' change-point parameters, checked as the query checks them. */
static int change_params(const struct site_args *a, struct site *s)
{
    static const char *const ok[] = {"window", "max_pvalue", "min_magnitude"};
    for (int i = 0; i < a->params.n; i++) {
        const char *name = a->params.v[i].name;
        int known = 0;
        for (size_t k = 0; k < 3; k++)
            known |= strcmp(name, ok[k]) == 0;
        if (!known)
            return bd_usage_error("site", "site: --param %s: the site takes regressions' window, max_pvalue and "
                                          "min_magnitude", name);
    }
    int rc = EXIT_OK;
    struct saved_query *q = cli_find_query("site", &a->path, "regressions", &rc);
    if (!q)
        return rc;
    struct resolved_params rp = {0};
    char *err = NULL;
    if (evaluation_resolve(q, &a->params, &rp, &err)) {
        rc = cli_usage_error_see("queries regressions", "site: %s", err);
    } else {
        for (int i = 0; i < q->nparams && i < rp.n; i++) {
            const struct param_value *v = &rp.v[i];
            double x = v->sqlite_type == SQLITE_INTEGER ? (double)v->i : v->d;
            if (strcmp(q->params[i].name, "window") == 0)
                s->window = x;
            else if (strcmp(q->params[i].name, "max_pvalue") == 0)
                s->max_pvalue = x;
            else if (strcmp(q->params[i].name, "min_magnitude") == 0)
                s->min_magnitude = x;
        }
        if (s->window < 2 || !(s->max_pvalue > 0))
            rc = bd_usage_error("site", "site: regressions' defaults give no window or p-value");
    }
    free(err);
    resolved_params_free(&rp);
    saved_query_free(q);
    return rc;
}

static int build(struct site *s, struct site_writer *w, char **err)
{
    if (site_read(s, err))
        return -1;
    w->total = s->nh + 1;
    if (site_read_evals(s, w, err))
        return -1;
    struct strbuf page = {0};
    for (size_t i = 0; i < s->nh; i++) {
        sb_reset(&page);
        if (site_history_page(s, &s->h[i], &page, err) || site_put(w, s->h[i].file, &page, err)) {
            sb_free(&page);
            return -1;
        }
    }
    sb_reset(&page);
    int rc = site_index_page(s, &page, err) || site_put(w, "index.html", &page, err) ? -1 : 0;
    sb_free(&page);
    return rc;
}

int cmd_site(struct cli *cli, int argc, char **argv)
{
    struct site_args a = {0};
    struct site s = {0};
    struct site_writer w = {0};
    char *err = NULL;
    int first, rc = EXIT_USAGE;
    if (cli_parse(&spec_site, argc, argv, &a, &first))
        goto out;
    if (!*argv[first]) {
        bd_usage_error("site", "site: the directory's name is empty");
        goto out;
    }
    query_path_add_env(&a.path);
    if ((rc = change_params(&a, &s)) != EXIT_OK)
        goto out;
    rc = EXIT_FAIL;
    if (cli_connect_store(cli, STORE_READ, &s.db))
        goto out;
    s.qp = &a.path;
    if (site_writer_open(&w, argv[first], &err) || (w.progress &= !a.quiet, build(&s, &w, &err)) ||
        site_writer_close(&w, &err)) {
        bd_error("%s", err ? err : "site: out of memory");
        goto out;
    }
    if (!a.quiet) { /* what it found first, as the index opens, then what it wrote */
        char *found = site_index_headline(&s);
        fprintf(stderr, "%s\n", found);
        free(found);
    }
    if (!a.quiet)
        fprintf(stderr, "site: wrote %s: %zu page%s (%zu histor%s, %zu evaluation%s, the index): %zu written, %zu "
                        "unchanged, %zu removed\n",
                argv[first], w.nmade, w.nmade == 1 ? "" : "s", s.nh, s.nh == 1 ? "y" : "ies", s.nevals,
                s.nevals == 1 ? "" : "s", w.written, w.unchanged, w.removed);
    rc = EXIT_OK;
out:
    site_writer_free(&w);
    db_close(s.db);
    site_free(&s);
    params_free(&a.params);
    query_path_free(&a.path);
    free(err);
    return rc;
}
