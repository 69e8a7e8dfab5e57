/* benchdb rule: fix a decision rule before the data it judges
 * (query/rules.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/rules.h"
#include "query/saved.h"
#include "util/strbuf.h"
#include "util/suggest.h"

struct rule_args {
    const char *published, *ref;
    struct query_path path;
    struct out_opts out;
};

static const struct cli_opt rule_opts[] = {
    {"published-at", 0, "TIME", "register: when the rule was published (RFC 3339,\ne.g. 2026-10-20T16:00:00Z)",
     cli_opt_string, offsetof(struct rule_args, published), 0, 0},
    {"ref", 0, "TEXT", "register: where it was published (e.g. a pull\nrequest URL)", cli_opt_string,
     offsetof(struct rule_args, ref), 0, 0},
    CLI_OPT_QUERIES(struct rule_args, path),
    CLI_OUTPUT_OPTIONS(struct rule_args, out),
    {0},
};

const struct cli_spec spec_rule = {
    .name = "rule",
    .store = 1,
    .synopsis = (const char *const[]){"rule register [OPTIONS] NAME|FILE.sql", "rule list [OPTIONS]",
                                      "rule show ID|NAME", NULL},
    .about = "Register a rule (a saved query) before the plan it will judge runs: its\n"
             "text and SHA-256 are stored with the time of registration and, if given,\n"
             "when and where it was published (e.g. a pull request). When a rule with\n"
             "the same SHA-256 judges a plan, 'benchdb query' says whether it was fixed\n"
             "(published, else registered) before the plan's earliest run started.\n"
             "What 'register' did goes to stderr. 'list' prints the registered rules.\n"
             "'show' writes a registered rule's exact text to stdout (by its id, or by\n"
             "name the latest of that name), so that 'benchdb query FILE.sql' judges\n"
             "with the text that was fixed, after the file or a shipped query changed.\n",
    .opts = rule_opts,
    .min_args = 1,
    .max_args = 2,
    .missing = "missing the subcommand (register, list or show)",
};

/* The rules in words: "3 rules registered, of 2 queries, 1 published;
 * the latest: gate-percent (id 3), 2026-12-05". */
static char *list_line(const struct rowset *rs)
{
    int cn = rowset_column(rs, "name"), cp = rowset_column(rs, "published_at"), ci = rowset_column(rs, "id"),
        ca = rowset_column(rs, "registered_at");
    size_t names = 0, published = 0, n = rs->nrow, last = 0;
    for (size_t r = 0; r < n && cn >= 0; r++) {
        const char *name = (const char *)sqlite3_value_text(rowset_cell(rs, r, cn));
        size_t k = 0;
        while (k < r && strcmp((const char *)sqlite3_value_text(rowset_cell(rs, k, cn)), name) != 0)
            k++;
        names += k == r;
        published += cp >= 0 && sqlite3_value_type(rowset_cell(rs, r, cp)) != SQLITE_NULL;
        if (ci >= 0 && sqlite3_value_int64(rowset_cell(rs, r, ci)) > sqlite3_value_int64(rowset_cell(rs, last, ci)))
            last = r;
    }
    if (cn < 0 || ci < 0 || ca < 0)
        return bd_strdupf("%zu rule%s registered", n, n == 1 ? "" : "s");
    return bd_strdupf("%zu rule%s registered, of %zu quer%s, %zu published; the latest: %s (id %lld), %.10s", n,
                      n == 1 ? "" : "s", names, names == 1 ? "y" : "ies", published,
                      (const char *)sqlite3_value_text(rowset_cell(rs, last, cn)),
                      (long long)sqlite3_value_int64(rowset_cell(rs, last, ci)),
                      (const char *)sqlite3_value_text(rowset_cell(rs, last, ca)));
}

static int rule_list_cmd(struct cli *cli, const struct rule_args *a)
{
    struct db *db;
    if (cli_connect_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    struct rowset rs = {0};
    struct out_notes rep = {0};
    char *err = NULL;
    int rc = EXIT_FAIL;
    if (rule_list(db, &rs, &err))
        bd_error("rule list: %s", err);
    else {
        if (rs.nrow == 0) { /* the answer in words, not a bare header */
            out_note(&rep, "no rule is registered ('benchdb rule register NAME' fixes one before its data)");
            rep.leading = 1;
        } else {
            char *line = list_line(&rs);
            out_answer(&rep, &a->out, line);
            free(line);
        }
        if (out_notes_print(&rep, &rs, &a->out, stdout, stderr) == 0)
            rc = EXIT_OK;
    }
    out_notes_free(&rep);
    rowset_free(&rs);
    free(err);
    db_close(db);
    return rc;
}

/* The rule ARG names: an id (digits) or the latest rule of a name; 1
 * found, 0 not (a usage error naming what there is, given), -1 failed. */
static int rule_named(struct db *db, const char *arg, long long *id)
{
    char *err = NULL, sha[65], fixed[TIME_TEXT_MAX];
    long long count = 0;
    int rc;
    if (arg[0] && strspn(arg, "0123456789") == strlen(arg) && strlen(arg) <= 18) {
        char *text = NULL, *name = NULL;
        *id = strtoll(arg, NULL, 10);
        rc = rule_text(db, *id, &text, &name, &err);
        free(text);
        free(name);
    } else
        rc = rule_find_named(db, arg, id, sha, fixed, &count, &err);
    if (rc < 0)
        bd_error("rule show: %s", err);
    free(err);
    if (rc != 0)
        return rc;
    long long *ids = NULL;
    char **names = NULL;
    size_t n = 0;
    if (rule_names(db, &ids, &names, &n, &err)) {
        bd_error("rule show: %s", err);
        rc = -1;
    } else if (n == 0)
        bd_usage_error("rule", "rule show: no rule is registered ('benchdb rule register NAME' fixes one)");
    else {
        struct strbuf have = {0};
        for (size_t i = 0; i < n; i++)
            sb_printf(&have, "%s%lld (%s)", i ? ", " : "", ids[i], names[i]);
        const char *near = suggest_closest(arg, (const char *const *)names, n);
        bd_usage_error("rule", "rule show: no registered rule is '%s'%s%s%s; the rules are %s", arg,
                       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
                       sb_failed(&have) ? "(out of memory)" : have.buf);
        sb_free(&have);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(ids);
    free(err);
    return rc;
}

static int rule_show_cmd(struct cli *cli, const char *arg)
{
    struct db *db;
    if (cli_connect_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    long long id = 0;
    int rc = EXIT_FAIL, found = rule_named(db, arg, &id);
    char *text = NULL, *name = NULL, *err = NULL;
    if (found == 0)
        rc = EXIT_USAGE;
    else if (found == 1 && rule_text(db, id, &text, &name, &err) != 1)
        bd_error("rule show: %s", err ? err : "the rule is gone");
    else if (found == 1) {
        /* the bytes as registered: their SHA-256 is the rule's */
        if (fwrite(text, 1, strlen(text), stdout) != strlen(text) || fflush(stdout) != 0)
            cli_output_failed("rule show");
        else
            rc = EXIT_OK;
    }
    free(text);
    free(name);
    free(err);
    db_close(db);
    return rc;
}

static int rule_register_cmd(struct cli *cli, const struct rule_args *a, const char *name)
{
    int rc = EXIT_FAIL;
    char *err = NULL;
    struct db *db = NULL;
    struct saved_query *q = cli_find_query("rule register", &a->path, name, &rc);
    if (!q)
        return rc;
    struct out_notes rep = {0};
    struct rule_registration reg;
    if (cli_connect_store(cli, STORE_WRITE, &db))
        goto out;
    if (store_may_change(db, "INSERT", "rule", &err)) { /* said once, before anything is read */
        bd_error("rule register: %s; nothing was registered", err ? err : "out of memory");
        goto out;
    }
    int valid = a->published ? rule_time_valid(db, a->published, &err) : 1;
    if (valid < 0) {
        bd_error("rule register: %s", err);
        goto out;
    }
    if (!valid) {
        rc = bd_usage_error("rule", "rule register: --published-at '%s': expected an RFC 3339 time such as "
                                    "2026-10-20T16:00:00Z", a->published);
        goto out;
    }
    /* after the options are known good: a usage error alone */
    if (!q->judges)
        bd_warning("rule register: %s has no '-- judges: PARAM' header line, so no evaluation can say whether it "
                   "preceded its plan", q->name);
    if (rule_register(db, q, a->published, a->ref, &reg, &err)) {
        bd_error("rule register: %s", err);
        goto out;
    }
    if (reg.existed)
        out_note(&rep, "rule %s (sha256 %.12s) is already registered as rule %lld, at %s", q->name, reg.sha256,
                    reg.id, reg.registered_at);
    else
        out_note(&rep, "registered rule %s (sha256 %.12s) as rule %lld at %s%s%s", q->name, reg.sha256, reg.id,
                    reg.registered_at, a->published ? ", published " : "", a->published ? a->published : "");
    out_field_int(&rep, "rule", reg.id);
    out_field_text(&rep, "sha256", reg.sha256);
    out_field_text(&rep, "registered_at", reg.registered_at);
    out_field_bool(&rep, "existed", reg.existed);
    rc = out_notes_print(&rep, NULL, &a->out, stdout, stderr) ? EXIT_FAIL : EXIT_OK;
out:
    out_notes_free(&rep);
    saved_query_free(q);
    db_close(db);
    free(err);
    return rc;
}

int cmd_rule(struct cli *cli, int argc, char **argv)
{
    struct rule_args a = {0};
    out_opts_init(&a.out);
    int first, rc = EXIT_USAGE;
    if (cli_parse(&spec_rule, argc, argv, &a, &first) || cli_output_ready("rule", &a.out))
        goto out;
    const char *sub = argv[first];
    int nargs = argc - first - 1;
    if (strcmp(sub, "list") == 0 && (a.published || a.ref))
        /* register's options: a listing would ignore them */
        bd_usage_error("rule", "rule list: %s goes with 'rule register'", a.published ? "--published-at" : "--ref");
    else if (strcmp(sub, "list") == 0 && nargs == 0)
        rc = rule_list_cmd(cli, &a);
    else if (strcmp(sub, "list") == 0)
        bd_usage_error("rule", "rule list: unexpected argument '%s'", argv[first + 1]);
    else if (strcmp(sub, "show") == 0 && nargs == 1)
        rc = rule_show_cmd(cli, argv[first + 1]);
    else if (strcmp(sub, "show") == 0)
        bd_usage_error("rule", "rule show: expected one rule (its id, or a name: the latest of that name)");
    else if (strcmp(sub, "register") != 0)
        bd_usage_error("rule", "rule: unknown subcommand '%s' (expected register, list or show)", sub);
    else if (nargs != 1)
        bd_usage_error("rule", "rule register: expected one saved query (a NAME or a FILE.sql)");
    else {
        query_path_add_env(&a.path);
        rc = rule_register_cmd(cli, &a, argv[first + 1]);
    }
out:
    query_path_free(&a.path);
    return rc;
}
