/* benchdb rule: fix a decision rule before the data it judges
 * (query/rules.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/rules.h"
#include "query/saved.h"

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
    .synopsis = (const char *const[]){"rule register [OPTIONS] NAME|FILE.sql", "rule list [OPTIONS]", NULL},
    .about = "Register a rule (a saved query) before the plan it will judge runs: its\n"
             "text and SHA-256 are stored with the time of registration and, if given,\n"
             "when and where it was published (e.g. a pull request). When a rule with\n"
             "the same SHA-256 judges a plan, 'benchdb query' says whether it was fixed\n"
             "(published, else registered) before the plan's earliest run started.\n"
             "What 'register' did goes to stderr. 'list' prints the registered rules.\n",
    .opts = rule_opts,
    .min_args = 1,
    .max_args = 2,
    .missing = "missing the subcommand (register or list)",
};

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
        if (rs.nrow == 0) /* the answer in words, not a bare header */
            out_note(&rep, "no rule is registered ('benchdb rule register NAME' fixes one before its data)");
        if (out_notes_print(&rep, &rs, &a->out, stdout, stderr) == 0)
            rc = EXIT_OK;
    }
    out_notes_free(&rep);
    rowset_free(&rs);
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
    if (!q->judges)
        bd_warning("rule register: %s has no '-- judges: PARAM' header line, so no evaluation can say whether it "
                   "preceded its plan", q->name);
    if (cli_connect_store(cli, STORE_WRITE, &db))
        goto out;
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
    else if (strcmp(sub, "register") != 0)
        bd_usage_error("rule", "rule: unknown subcommand '%s' (expected register or list)", sub);
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
