/* Parameters that name a plan, run, host or attribute: they must exist. */
#include "query/param_check.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"

/* What each kind is looked up in; ?1 is the plan in scope, or NULL (cast:
 * PostgreSQL cannot infer the type of a parameter that is only tested for
 * NULL). An attribute's keys: json_each, the key of each member of the
 * attributes object on both engines. */
#define IN_PLAN "WHERE CAST(?1 AS TEXT) IS NULL OR p.name = ?1 ORDER BY 1"
static const char *const names_sql[] = {
    [NAMES_PLAN] = "SELECT name FROM plan ORDER BY name",
    [NAMES_RUN] = "SELECT DISTINCT r.name FROM run r JOIN plan p ON p.id = r.plan_id " IN_PLAN,
    [NAMES_HOST] = "SELECT DISTINCT h.name FROM host h JOIN run r ON r.host_id = h.id JOIN plan p ON p.id = r.plan_id "
                   IN_PLAN,
    [NAMES_ATTRIBUTE] = "SELECT DISTINCT j.key FROM run r JOIN plan p ON p.id = r.plan_id, json_each(r.attributes) j "
                        IN_PLAN,
};

struct names {
    char **v;
    size_t n;
};

static void names_free(struct names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
}

static int names_load(struct db *db, enum param_names kind, const char *plan, struct names *ns, char **err)
{
    struct db_stmt *st;
    memset(ns, 0, sizeof *ns);
    const char *sql = names_sql[kind];
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "cannot list the store's %ss: %s", param_names_kind(kind), db_errmsg(db));
    int rc = kind == NAMES_PLAN || !plan ? SQLITE_OK : db_bind_text(st, 1, plan, -1);
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        char **v = realloc(ns->v, (ns->n + 1) * sizeof *v);
        const char *t = (const char *)db_column_text(st, 0);
        if (!v || !(v[ns->n] = strdup(t ? t : ""))) {
            if (v)
                ns->v = v;
            rc = SQLITE_NOMEM;
            break;
        }
        ns->v = v;
        ns->n++;
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot list the store's %ss: %s", param_names_kind(kind),
                rc == SQLITE_NOMEM ? "out of memory" : db_errmsg(db));
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The parameter whose value scopes runs, hosts and attributes. */
static int plan_param(const struct saved_query *q)
{
    for (int i = 0; i < q->nparams; i++)
        if (q->judges && strcmp(q->params[i].name, q->judges) == 0 && q->params[i].type.names == NAMES_PLAN)
            return i;
    for (int i = 0; i < q->nparams; i++)
        if (q->params[i].type.names == NAMES_PLAN)
            return i;
    return -1;
}

static int refuse(const struct saved_param *p, const char *value, const char *plan, const struct names *ns, char **err)
{
    const char *kind = param_names_kind(p->type.names);
    struct strbuf sb = {0};
    if (p->type.names == NAMES_ATTRIBUTE)
        sb_printf(&sb, "%s '%s' is not an attribute of any run%s%s", p->name, value, plan ? " of plan " : "",
                  plan ? plan : "");
    else {
        if (strcmp(p->name, kind) != 0)
            sb_printf(&sb, "%s: ", p->name);
        if (plan && p->type.names == NAMES_RUN)
            sb_printf(&sb, "run '%s' is not a run of plan %s", value, plan);
        else if (plan && p->type.names == NAMES_HOST)
            sb_printf(&sb, "host '%s' ran no run of plan %s", value, plan);
        else
            sb_printf(&sb, "%s '%s' does not exist", kind, value);
    }
    /* Every name when they are few; the nearest too when it is not shown. */
    enum { SHOWN = 10 };
    sb_printf(&sb, "; %ss: ", kind);
    sb_put_name_list(&sb, (const char *const *)ns->v, ns->n, SHOWN);
    const char *near = suggest_closest(value, (const char *const *)ns->v, ns->n);
    int near_shown = 0;
    for (size_t i = 0; near && i < ns->n && i < SHOWN; i++)
        near_shown |= ns->v[i] == near;
    if (near && !near_shown)
        sb_printf(&sb, "; did you mean '%s'?", near);
    bd_fail(err, "%s", sb.buf);
    sb_free(&sb);
    return EXIT_USAGE;
}

int param_check_names(struct db *db, const struct saved_query *q, const struct params *given,
                      const struct param_value *vals, char **err)
{
    int pp = plan_param(q);
    const char *plan = pp >= 0 && vals[pp].sqlite_type == SQLITE_TEXT ? vals[pp].s : NULL;
    /* The plan first: the others are looked for in it. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < q->nparams; i++) {
            const struct saved_param *p = &q->params[i];
            if (!p->type.names || (p->type.names == NAMES_PLAN) != (pass == 0))
                continue;
            const char *value = params_get(given, p->name);
            if (!value || vals[i].sqlite_type != SQLITE_TEXT)
                continue;
            struct names ns;
            if (names_load(db, p->type.names, plan, &ns, err)) {
                names_free(&ns);
                return EXIT_FAIL;
            }
            int found = 0;
            for (size_t k = 0; k < ns.n && !found; k++)
                found = strcmp(ns.v[k], value) == 0;
            int rc = found ? EXIT_OK : refuse(p, value, p->type.names == NAMES_PLAN ? NULL : plan, &ns, err);
            names_free(&ns);
            if (rc != EXIT_OK)
                return rc;
        }
    return EXIT_OK;
}
