/* benchdb migrate: apply pending schema migrations, or list them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct migrate_args {
    int status;
    struct out_opts out;
};

static const struct cli_opt migrate_opts[] = {
    {"status", 0, NULL, "list the migrations, change nothing", cli_opt_flag, offsetof(struct migrate_args, status),
     0, 0},
    CLI_OUTPUT_OPTIONS(struct migrate_args, out),
    {0},
};

const struct cli_spec spec_migrate = {
    .name = "migrate",
    .store = 1,
    .synopsis = (const char *const[]){"migrate [--status [OPTIONS]]", NULL},
    .about = "Apply the pending schema migrations to the store, each in its own\n"
             "transaction, or with --status list every migration this benchdb knows:\n"
             "applied (with when) or pending, and whether an applied migration's text\n"
             "differs from the one in this binary (modified).\n",
    .opts = migrate_opts,
};

/* One row per migration this binary knows. */
static int status_rows(struct db *db, struct rowset *rs, char **err)
{
    static const char *const names[] = {"version", "name", "state", "applied_at"};
    struct rowset_builder b;
    rowset_builder_start(&b, rs, 4, names);
    int applied = store_version(db, err);
    struct db_stmt *st = NULL;
    /* An empty store (version 0) has no schema_migration table yet. */
    if (applied < 0 ||
        (applied > 0 &&
         db_prepare(db, "SELECT applied_at, sha256 FROM schema_migration WHERE version = ?", &st))) {
        if (applied >= 0)
            bd_fail(err, "cannot read the migrations: %s", db_errmsg(db));
        rowset_builder_finish(&b, NULL);
        return -1;
    }
    int rc = SQLITE_OK;
    for (int i = 1; i <= store_migrations_known(db) && rc == SQLITE_OK; i++) {
        char version[16];
        snprintf(version, sizeof version, "%04d", i);
        rb_text(&b, 0, version);
        rb_text(&b, 1, store_migration_name(i));
        rb_text(&b, 2, i <= applied ? "applied" : "pending");
        if (i <= applied && (rc = db_bind_int(st, 1, i)) == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
            rb_text(&b, 3, (const char *)db_column_text(st, 0));
            char hex[65];
            const char *text = store_migration_text(db, i);
            sha256_hex_of(text, strlen(text), hex);
            if (strcmp(hex, (const char *)db_column_text(st, 1)) != 0)
                rb_text(&b, 2, "modified");
        }
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            rc = db_reset(st);
        rb_row(&b);
    }
    if (rc != SQLITE_OK)
        bd_fail(err, "cannot read the migrations: %s", db_errmsg(db));
    db_finalize(st);
    int brc = rowset_builder_finish(&b, rc == SQLITE_OK ? err : NULL);
    return rc == SQLITE_OK && brc == 0 ? 0 : -1;
}

/* The state in words, from the rows: "schema at version 16 of 16: up to
 * date", or what is pending or modified. */
static char *status_line(const struct rowset *rs)
{
    size_t applied = 0, pending = 0, modified = 0;
    const char *first = NULL;
    for (size_t r = 0; r < rs->nrow; r++) {
        const char *state = (const char *)sqlite3_value_text(rowset_cell(rs, r, 2));
        int p = state && strcmp(state, "pending") == 0, m = state && strcmp(state, "modified") == 0;
        pending += p;
        modified += m;
        applied += !p;
        if (p && !first)
            first = (const char *)sqlite3_value_text(rowset_cell(rs, r, 1));
    }
    struct strbuf sb = {0};
    sb_printf(&sb, "schema at version %zu of %zu", applied, rs->nrow);
    if (!pending && !modified)
        sb_puts(&sb, ": up to date");
    if (pending)
        sb_printf(&sb, ": %zu migration%s pending, from %s: 'benchdb migrate' applies %s", pending,
                  pending == 1 ? "" : "s", first ? first : "", pending == 1 ? "it" : "them");
    if (modified)
        sb_printf(&sb, "%s %zu applied migration%s modified since (state modified)", pending ? ";" : ":", modified,
                  modified == 1 ? "" : "s");
    return xsb_detach(&sb);
}

int cmd_migrate(struct cli *cli, int argc, char **argv)
{
    struct migrate_args a = {0};
    out_opts_init(&a.out);
    int first;
    if (cli_parse(&spec_migrate, argc, argv, &a, &first) || cli_output_ready("migrate", &a.out))
        return EXIT_USAGE;
    /* The output options shape --status's list; a migration prints one line. */
    if (!a.status && (a.out.format != OUT_TABLE || a.out.digits != OUT_DIGITS_DEFAULT || a.out.wide))
        return bd_usage_error("migrate", "migrate: %s goes with --status (the list it prints)",
                              a.out.format != OUT_TABLE ? "--format" : a.out.wide ? "--wide" : "--digits");
    struct db *db;
    if (cli_connect_store(cli, a.status ? STORE_INSPECT : STORE_MIGRATE, &db))
        return EXIT_FAIL;
    char *err = NULL;
    int rc = EXIT_FAIL;
    if (a.status) {
        struct rowset rs = {0};
        if (status_rows(db, &rs, &err) == 0) {
            struct out_notes rep = {0};
            char *line = status_line(&rs);
            out_answer(&rep, &a.out, line);
            free(line);
            rc = out_notes_print(&rep, &rs, &a.out, stdout, stderr) ? EXIT_FAIL : EXIT_OK;
            out_notes_free(&rep);
        } else
            bd_error("migrate: %s", err);
        rowset_free(&rs);
    } else {
        const char *name = cli_store_name(cli);
        int before = store_version(db, NULL);
        int n = store_apply_migrations(db, -1, &err);
        int now = store_version(db, NULL);
        if (n < 0)
            bd_error("%s: %s", name, err);
        else if (n == 0)
            cli_say("store %s is up to date (schema version %d)", name, now);
        else
            cli_say("applied %d migration%s to %s: schema version %d to %d", n, n == 1 ? "" : "s", name, before,
                    now);
        rc = n < 0 ? EXIT_FAIL : EXIT_OK;
    }
    free(err);
    db_close(db);
    return rc;
}
