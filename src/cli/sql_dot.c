/* benchdb sql's dot commands, as the sqlite3 shell has them (.tables,
 * .schema, and .functions: the SQL functions benchdb adds), on either
 * engine; and the names an "unknown table/column/function" error
 * suggests (docs/schema.md, "Finding your way"). */
#include "cli/sql_dot.h"

#include <stdlib.h>
#include <string.h>

#include "store/catalog.h"
#include "util/natural.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The first column of sql's rows (?1 bound to arg when not NULL) into
 * names; 0, or -1 on an error. */
static int load_names(struct db *db, const char *sql, const char *arg, struct sql_names *names)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return -1;
    if (arg && db_bind_text(st, 1, arg, -1) != SQLITE_OK) {
        db_finalize(st);
        return -1;
    }
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        char **v = xreallocarray(names->v, names->n + 1, sizeof *v);
        if (!v) {
            rc = SQLITE_NOMEM;
            break;
        }
        names->v = v;
        if (!(v[names->n] = xstrdup(t ? t : ""))) {
            rc = SQLITE_NOMEM;
            break;
        }
        names->n++;
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

void sql_names_free(struct sql_names *names)
{
    for (size_t i = 0; i < names->n; i++)
        free(names->v[i]);
    free(names->v);
    memset(names, 0, sizeof *names);
}

/* ---- the dot commands ---- */

static int collect(struct db *db, const char *sql, const char *arg, struct rowset *rs);

/* benchdb's functions: the catalogue's, without the engine's own. */
static int functions_of_benchdb(struct db *db, struct rowset *rs)
{
    int rc = collect(db, store_catalog_sql(db, STORE_CATALOG_FUNCTIONS), NULL, rs);
    unsigned char *keep = rc ? NULL : xcalloc(rs->nrow + 1, 1);
    for (size_t r = 0; keep && r < rs->nrow; r++) {
        const char *name = (const char *)sqlite3_value_text(rowset_cell(rs, r, 0));
        int builtin = store_function_is_builtin(db, name ? name : "", sqlite3_value_int(rowset_cell(rs, r, 2)));
        if (builtin < 0) {
            rc = -1;
            break;
        }
        keep[r] = !builtin;
    }
    if (keep && rc == 0)
        rowset_keep(rs, keep);
    else
        rc = -1;
    free(keep);
    return rc;
}

/* The rows of sql (?1 bound to arg when not NULL). */
static int collect(struct db *db, const char *sql, const char *arg, struct rowset *rs)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return -1;
    int rc = arg ? db_bind_text(st, 1, arg, -1) : SQLITE_OK;
    if (rc == SQLITE_OK)
        rc = rowset_collect_db(rs, st);
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* "; did you mean 'x'?" or "; KINDS: a, b, ..." for name among names. */
static void hint_names(struct strbuf *sb, const char *name, struct sql_names *names, const char *kinds)
{
    natural_sort((const char **)names->v, names->n);
    const char *near = suggest_closest(name, (const char *const *)names->v, names->n);
    if (near) {
        sb_printf(sb, "; did you mean '%s'?", near);
        return;
    }
    enum { SHOWN = 10 };
    const char *nearest[SHOWN];
    size_t k = suggest_nearest(name, (const char *const *)names->v, names->n, nearest, SHOWN);
    sb_printf(sb, "; %s%s: ", names->n > SHOWN ? "the nearest " : "", kinds);
    sb_put_name_list(sb, nearest, k, SHOWN);
}

int sql_dot_command(struct db *db, const char *text, const struct out_opts *out, int *rc)
{
    const char *s = text;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (*s != '.')
        return 0;
    char cmd[32] = "", arg[256] = "";
    int n = sscanf(s, ".%31s %255s", cmd, arg);
    const char *a = n == 2 ? arg : NULL;
    struct rowset rs = {0};
    struct out_notes rep = {0};
    struct strbuf sb = {0};
    *rc = EXIT_FAIL;
    if (strcmp(cmd, "tables") == 0) {
        if (collect(db, store_catalog_sql(db, STORE_CATALOG_TABLES), a, &rs))
            bd_error("sql: .tables: %s", db_errmsg(db));
        else if (out_notes_print(&rep, &rs, out, stdout, stderr))
            cli_output_failed("sql");
        else
            *rc = EXIT_OK;
    } else if (strcmp(cmd, "functions") == 0) {
        if (functions_of_benchdb(db, &rs))
            bd_error("sql: .functions: %s", db_errmsg(db));
        else if (out_notes_print(&rep, &rs, out, stdout, stderr))
            cli_output_failed("sql");
        else
            *rc = EXIT_OK;
    } else if (strcmp(cmd, "schema") == 0) {
        struct sql_names tables = {0};
        if (store_schema_text(db, a, &sb))
            bd_error("sql: .schema: %s", db_errmsg(db));
        else if (!sb.len && a) {
            struct strbuf msg = {0};
            sb_printf(&msg, "sql: .schema: no table or view named '%s'", a);
            if (load_names(db, store_catalog_sql(db, STORE_CATALOG_TABLES), NULL, &tables) == 0)
                hint_names(&msg, a, &tables, "tables and views");
            *rc = bd_usage_error("sql", "%s", xsb_text(&msg));
            sb_free(&msg);
        } else if (sb.len && fwrite(sb.buf, 1, sb.len, stdout) != sb.len)
            cli_output_failed("sql");
        else
            *rc = EXIT_OK;
        sql_names_free(&tables);
    } else
        *rc = bd_usage_error("sql", "sql: unknown command '.%s': benchdb sql knows .tables [PATTERN], .schema [TABLE] "
                                    "and .functions", cmd);
    rowset_free(&rs);
    out_notes_free(&rep);
    sb_free(&sb);
    return 1;
}

/* ---- suggestions for "no such ..." ---- */

/* The name an error message is about, after prefix (SQLite: "no such
 * table: main.x") or between quotes after prefix (PostgreSQL: relation
 * "x" does not exist). malloc'd, or NULL. */
static char *name_after(const char *msg, const char *prefix, int quoted)
{
    const char *p = strstr(msg, prefix);
    if (!p)
        return NULL;
    p += strlen(prefix);
    if (quoted) {
        const char *e = strchr(p, '"');
        return e ? xstrndup(p, (size_t)(e - p)) : NULL;
    }
    size_t n = strcspn(p, " (\n");
    return n ? xstrndup(p, n) : NULL;
}

void sql_error_hint(struct db *db, const char *msg, struct strbuf *hint)
{
    static const struct {
        const char *prefix, *needs;
        int quoted;
        int kind; /* 0 table, 1 column, 2 function */
    } forms[] = {
        {"no such table: ", "", 0, 0},  {"no such column: ", "", 0, 1}, {"no such function: ", "", 0, 2},
        {"relation \"", "does not exist", 1, 0}, {"column \"", "does not exist", 1, 1},
        {"column ", "does not exist", 0, 1},      {"function ", "does not exist", 0, 2},
    };
    static const char *const kinds[] = {"tables and views", "columns", "functions"};
    char *name = NULL;
    int kind = -1;
    for (size_t i = 0; !name && i < sizeof forms / sizeof *forms; i++)
        if (strstr(msg, forms[i].needs) && (name = name_after(msg, forms[i].prefix, forms[i].quoted)) != NULL)
            kind = forms[i].kind;
    if (!name)
        return;
    /* A qualified name: suggest for its last part (r.nam, main.runs). */
    const char *base = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
    struct sql_names names = {0};
    static const enum store_catalog lists[] = {STORE_CATALOG_TABLES, STORE_CATALOG_COLUMNS,
                                               STORE_CATALOG_ALL_FUNCTIONS};
    const char *sql = store_catalog_sql(db, lists[kind]);
    if (load_names(db, sql, NULL, &names) == 0 && names.n)
        hint_names(hint, base, &names, kinds[kind]);
    sql_names_free(&names);
    free(name);
}
