/* benchdb delete: removes what ingest stored (ingest/sink/remove.h). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ingest/ingest.h"
#include "query/param_check.h"
#include "util/xalloc.h"

static int parse_run_arg(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    if (!strchr(arg, '/') || arg[0] == '/' || arg[strlen(arg) - 1] == '/')
        return bd_fail(err, "expected PLAN/RUN");
    *(const char **)dst = arg;
    return 0;
}

struct delete_args {
    int archive;
    const char *run, *plan;
    int dry_run;
};

static const struct cli_opt delete_opts[] = {
    {"archive", 0, "ID", "the archive with this id ('benchdb list archives')", cli_opt_int,
     offsetof(struct delete_args, archive), 1, INT_MAX},
    {"run", 0, "PLAN/RUN", "the run RUN of plan PLAN", parse_run_arg, offsetof(struct delete_args, run), 0, 0},
    {"plan", 0, "PLAN", "every run of plan PLAN", cli_opt_string, offsetof(struct delete_args, plan), 0, 0},
    {"dry-run", 0, NULL, "say what would be removed, remove nothing", cli_opt_flag,
     offsetof(struct delete_args, dry_run), 0, 0},
    {0},
};

const struct cli_spec spec_delete = {
    .name = "delete",
    .store = 1,
    .synopsis = (const char *const[]){"delete --archive ID [--dry-run]", "delete --run PLAN/RUN [--dry-run]",
                                      "delete --plan PLAN [--dry-run]", NULL},
    .about = "Remove what was stored, in one transaction: an archive (its runs with all\n"
             "their values, gates and events, what it added to other runs with\n"
             "ingest --append, its members and stored bytes), a run, or every run of a\n"
             "plan. Archives left with nothing are removed with them, and a plan left\n"
             "without runs. The derived tables follow, so 'benchdb check' stays clean;\n"
             "loading the same files again restores the same rows. Recorded\n"
             "evaluations stay (their data fingerprint then differs from the store's).\n"
             "Prints what was removed, in counts, on stdout.\n",
    .opts = delete_opts,
    .more = "Exit status: 0 when removed, 1 when there is no such archive (or the\n"
            "store cannot be changed), 2 on a usage error: a run or plan the store does\n"
            "not hold too (the error names the nearest that exist).\n"
            "\n"
            "Example:\n"
            "  benchdb delete --run pr-42/base --dry-run\n",
};

/* The (plan, run) that PLAN/RUN names: split at the slash where such a run
 * is stored (a plan name may hold slashes too). 0, 1 with *err when none
 * or several are stored. */
static int split_run(struct db *db, const char *arg, char **plan, char **run, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT count(*) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ? AND r.name = ?", &st) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    const char *at = strchr(arg, '/'); /* none stored: the first slash, for the message */
    int found = 0;
    for (const char *slash = at; slash; slash = strchr(slash + 1, '/')) {
        db_bind_text(st, 1, arg, (int)(slash - arg));
        db_bind_text(st, 2, slash + 1, -1);
        if (db_step(st) == SQLITE_ROW && db_column_int(st, 0) > 0 && found++ == 0)
            at = slash;
        db_reset(st);
    }
    db_finalize(st);
    if (found > 1) {
        bd_fail(err, "'%s' names more than one stored run (plans with '/' in their names): delete by --archive", arg);
        return 1;
    }
    *plan = xstrndup(arg, (size_t)(at - arg));
    *run = xstrdup(at + 1);
    return *plan && *run ? 0 : bd_fail(err, "out of memory");
}

static long long evaluations(struct db *db)
{
    struct db_stmt *st;
    long long n = 0;
    if (db_prepare(db, "SELECT count(*) FROM evaluation", &st) == SQLITE_OK &&
        db_step(st) == SQLITE_ROW)
        n = db_column_int64(st, 0);
    db_finalize(st);
    return n;
}

static const char *s_(long long n)
{
    return n == 1 ? "" : "s";
}

int cmd_delete(struct cli *cli, int argc, char **argv)
{
    struct delete_args a = {0};
    int first;
    if (cli_parse(&spec_delete, argc, argv, &a, &first))
        return EXIT_USAGE;
    if ((a.archive != 0) + (a.run != NULL) + (a.plan != NULL) != 1)
        return bd_usage_error("delete", "delete: expected one of --archive ID, --run PLAN/RUN and --plan PLAN");
    long long archive = a.archive;
    const char *run_arg = a.run, *plan_arg = a.plan;
    int dry = a.dry_run;
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_WRITE, &db))
        return EXIT_FAIL;
    char *plan = NULL, *run = NULL, *err = NULL;
    if (store_may_change(db, "DELETE", "plan", &err)) { /* said once, before anything is read */
        bd_error("delete: %s; nothing was deleted", err ? err : "out of memory");
        free(err);
        db_close(db);
        return EXIT_FAIL;
    }
    int rc = 0;
    if (run_arg)
        rc = split_run(db, run_arg, &plan, &run, &err);
    struct ingest_removal r = {0};
    if (rc == 0)
        rc = ingest_remove(db, archive, run_arg ? plan : plan_arg, run, dry, &r, &err);
    /* A plan or run that is not there: a usage error naming what is. */
    if (rc == 1 && !archive) {
        char *why = NULL;
        int named = param_check_name(db, NAMES_PLAN, plan ? plan : plan_arg, NULL, &why);
        if (named == EXIT_OK && run)
            named = param_check_name(db, NAMES_RUN, run, plan, &why);
        if (named == EXIT_USAGE) {
            bd_usage_error("delete", "delete: %s", why);
            free(why);
            free(err);
            free(plan);
            free(run);
            db_close(db);
            return EXIT_USAGE;
        }
        free(why);
    }
    if (rc != 0) {
        bd_error("delete: %s", err ? err : "failed");
        free(err);
        free(plan);
        free(run);
        db_close(db);
        return EXIT_FAIL;
    }
    printf("delete: %s %lld archive%s (%lld member%s, %lld chunk%s of stored bytes), %lld run%s, %lld series, "
           "%lld sample row%s, %lld gate%s, %lld event%s, %lld plan%s\n",
           dry ? "would remove" : "removed", r.archives, s_(r.archives), r.members, s_(r.members), r.chunks,
           s_(r.chunks), r.runs, s_(r.runs), r.series, r.samples, s_(r.samples), r.gates, s_(r.gates), r.events,
           s_(r.events), r.plans, s_(r.plans));
    long long ev = evaluations(db);
    if (ev && !dry)
        bd_notice("note: the %lld recorded evaluation%s stay; the data fingerprint of those that saw this data no "
                  "longer matches the store's",
                  ev, s_(ev));
    free(plan);
    free(run);
    db_close(db);
    return EXIT_OK;
}
