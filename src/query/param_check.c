/* Parameters that name a plan, run, host, attribute, metric, benchmark,
 * source, variant, side or a benchmark's parameters: they must exist. */
#include "query/param_check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "compare/units.h"
#include "util/diag.h"
#include "util/natural.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

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
    /* A metric, and the harness's own name of a primary metric (Google
     * Benchmark's real_time, kept in series.detail: docs/formats.md),
     * which names it too; and its units, each of which names it when no
     * other metric has it (as stored, ns/op, or as compare shows it, sec/op). */
    [NAMES_METRIC] = "SELECT DISTINCT se.metric, CASE WHEN se.metric = 'primary' THEN CAST(se.detail ->> 'metric' AS TEXT) END, "
                     "se.unit FROM series se JOIN run r ON r.id = se.run_id JOIN plan p ON p.id = r.plan_id " IN_PLAN,
    [NAMES_BENCHMARK] = "SELECT DISTINCT name FROM benchmark ORDER BY 1",
    [NAMES_SOURCE] = "SELECT DISTINCT r.source FROM run r JOIN plan p ON p.id = r.plan_id "
                     "WHERE r.source IS NOT NULL AND (CAST(?1 AS TEXT) IS NULL OR p.name = ?1) ORDER BY 1",
    [NAMES_VARIANT] = "SELECT name FROM variant ORDER BY 1",
    [NAMES_PARAMS] = "SELECT DISTINCT params FROM benchmark ORDER BY 1",
};
/* The values of attribute ?2 (a side when by = attr). */
static const char attribute_values_sql[] =
    "SELECT DISTINCT CAST(r.attributes ->> CAST(?2 AS TEXT) AS TEXT) FROM run r JOIN plan p ON p.id = r.plan_id "
    "WHERE r.attributes ->> CAST(?2 AS TEXT) IS NOT NULL AND (CAST(?1 AS TEXT) IS NULL OR p.name = ?1) ORDER BY 1";

struct names {
    char **v;
    size_t n;
    char **alias; /* metrics: alias[i] names the primary metric as its harness does (or NULL) */
    size_t nalias;
    char **unit_of; /* metrics: pairs of a unit (as stored, or as compare shows it) and its metric */
    size_t nunit_of; /* items: twice the pairs */
    char **units;    /* metrics: every unit of unit_of, once */
    size_t nunits;
};

static void names_free(struct names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    for (size_t i = 0; i < ns->nalias; i++)
        free(ns->alias[i]);
    for (size_t i = 0; i < ns->nunit_of; i++)
        free(ns->unit_of[i]);
    for (size_t i = 0; i < ns->nunits; i++)
        free(ns->units[i]);
    free(ns->v);
    free(ns->alias);
    free(ns->unit_of);
    free(ns->units);
}

/* Appends t to *v (of *n), duplicates kept; -1 when memory ran out. */
static int names_push(char ***v, size_t *n, const char *t)
{
    char **nv = xreallocarray(*v, *n + 1, sizeof *nv);
    if (!nv)
        return -1;
    *v = nv;
    if (!(nv[*n] = xstrdup(t)))
        return -1;
    (*n)++;
    return 0;
}

static int names_add(char ***v, size_t *n, const char *t);

/* A metric's unit: as stored and as compare shows it, each a name of it,
 * and the heading of its table in compare (alias: the harness's name of
 * the primary metric): "cpu_time (sec)", "real_time (sec)". */
static int unit_add(struct names *ns, const char *metric, const char *alias, const char *unit)
{
    char shown[256], heading[512];
    if (!unit || strlen(unit) > 120 || strlen(metric) > 120 || (alias && strlen(alias) > 120))
        return 0;
    cmp_tidy_any(unit, shown, sizeof shown);
    const char *m = alias ? alias : metric;
    snprintf(heading, sizeof heading, "%s (%s)", m, shown);
    const char *u[3] = {unit, shown, strcmp(m, "primary") == 0 || strcmp(m, unit) == 0 ? NULL : heading};
    for (int k = 0; k < 3; k++)
        if (u[k] && (names_push(&ns->unit_of, &ns->nunit_of, u[k]) || names_push(&ns->unit_of, &ns->nunit_of, metric) ||
                     (k < 2 && names_add(&ns->units, &ns->nunits, u[k]))))
            return -1;
    return 0;
}

/* Adds t to *v (of *n) unless it is there; -1 when memory ran out. */
static int names_add(char ***v, size_t *n, const char *t)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], t) == 0)
            return 0;
    return names_push(v, n, t);
}

/* The names of kind there are (in plan when not NULL and the kind is
 * scoped by plans); kind NAMES_SIDE stands for the values of attribute
 * key. */
static int names_load(struct db *db, enum param_names kind, const char *plan, const char *key, struct names *ns,
                      char **err)
{
    struct db_stmt *st;
    memset(ns, 0, sizeof *ns);
    const char *sql = kind == NAMES_SIDE ? attribute_values_sql : names_sql[kind];
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "cannot list the store's %ss: %s", param_names_kind(kind), db_errmsg(db));
    int scoped = kind != NAMES_PLAN && kind != NAMES_BENCHMARK && kind != NAMES_VARIANT && kind != NAMES_PARAMS;
    int rc = !scoped || !plan ? SQLITE_OK : db_bind_text(st, 1, plan, -1);
    if (rc == SQLITE_OK && kind == NAMES_SIDE)
        rc = db_bind_text(st, 2, key, -1);
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        const char *alias = kind == NAMES_METRIC ? (const char *)db_column_text(st, 1) : NULL;
        if (names_add(&ns->v, &ns->n, t ? t : "") ||
            (alias && (names_add(&ns->alias, &ns->nalias, alias) || names_add(&ns->v, &ns->n, alias))) ||
            (kind == NAMES_METRIC && unit_add(ns, t ? t : "", alias, (const char *)db_column_text(st, 2)))) {
            rc = SQLITE_NOMEM;
            break;
        }
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot list the store's %ss: %s", param_names_kind(kind),
                rc == SQLITE_NOMEM ? "out of memory" : db_errmsg(db));
    db_finalize(st);
    if (rc == SQLITE_DONE) {
        natural_sort((const char **)ns->v, ns->n);
        natural_sort((const char **)ns->units, ns->nunits);
    }
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

/* The stored parameters that are the same JSON object as value, written
 * otherwise (keys in another order, spaces), or NULL. */
static const char *same_params(const char *value, const struct names *ns)
{
    json_t *v = json_loads(value, JSON_DECODE_ANY, NULL);
    const char *same = NULL;
    for (size_t i = 0; v && json_is_object(v) && i < ns->n && !same; i++) {
        json_t *w = json_loads(ns->v[i], JSON_DECODE_ANY, NULL);
        if (w && json_equal(v, w))
            same = ns->v[i];
        json_decref(w);
    }
    json_decref(v);
    return same;
}

static int refuse(const char *pname, enum param_names names, const char *key, const char *value, const char *plan,
                  const struct names *ns, char **err)
{
    const char *kind = names == NAMES_SIDE ? "value" : param_names_kind(names);
    /* the plural of kind in "(plans: ...)": params is one already */
    const char *s_ = names == NAMES_PARAMS ? "" : "s";
    struct strbuf sb = {0};
    const char *same = names == NAMES_PARAMS ? same_params(value, ns) : NULL;
    if (same) {
        if (strcmp(pname, kind) != 0)
            sb_printf(&sb, "%s: ", pname);
        sb_printf(&sb, "params '%s': the store writes these parameters '%s' (keys sorted, no spaces); give "
                       "them so", value, same);
        bd_fail(err, "%s", xsb_text(&sb));
        sb_free(&sb);
        return EXIT_USAGE;
    }
    if (names == NAMES_SIDE)
        sb_printf(&sb, "%s: '%s' is not a value of attribute %s of any run%s%s", pname, value, key,
                  plan ? " of plan " : "", plan ? plan : "");
    else if (names == NAMES_ATTRIBUTE)
        sb_printf(&sb, "%s '%s' is not an attribute of any run%s%s", pname, value, plan ? " of plan " : "",
                  plan ? plan : "");
    else {
        if (strcmp(pname, kind) != 0)
            sb_printf(&sb, "%s: ", pname);
        if (plan && names == NAMES_RUN)
            sb_printf(&sb, "run '%s' is not a run of plan %s", value, plan);
        else if (plan && names == NAMES_HOST)
            sb_printf(&sb, "host '%s' ran no run of plan %s", value, plan);
        else if (plan && names == NAMES_METRIC)
            sb_printf(&sb, "metric '%s' has no values in plan %s", value, plan);
        else if (plan && names == NAMES_SOURCE)
            sb_printf(&sb, "source '%s' is the source of no run of plan %s", value, plan);
        else if (names == NAMES_PARAMS)
            sb_printf(&sb, "params '%s' are the parameters of no benchmark", value);
        else
            sb_printf(&sb, "%s '%s' does not exist", kind, value);
    }
    /* Every name when they are few, else the nearest ones; the nearest
     * too when it is not shown. */
    enum { SHOWN = 10 };
    const char *near = suggest_closest(value, (const char *const *)ns->v, ns->n);
    if (!near && names == NAMES_METRIC) /* a unit names its metric too */
        near = suggest_closest(value, (const char *const *)ns->units, ns->nunits);
    if (near)
        sb_printf(&sb, "; did you mean '%s'?", near);
    if (ns->n <= SHOWN) {
        sb_printf(&sb, near ? " (%s%s: " : "; %s%s: ", kind, s_);
        sb_put_name_list(&sb, (const char *const *)ns->v, ns->n, SHOWN);
        if (names == NAMES_METRIC && ns->nunits) {
            sb_puts(&sb, "; or a unit of one: ");
            sb_put_name_list(&sb, (const char *const *)ns->units, ns->nunits, SHOWN);
        }
        sb_puts(&sb, near ? ")" : "");
    } else if (near)
        sb_printf(&sb, " (of %zu %s%s)", ns->n, kind, s_);
    else {
        const char *nearest[SHOWN];
        size_t k = suggest_nearest(value, (const char *const *)ns->v, ns->n, nearest, SHOWN);
        sb_printf(&sb, "; the nearest of %zu %s%s: ", ns->n, kind, s_);
        sb_put_name_list(&sb, nearest, k, SHOWN);
    }
    bd_fail(err, "%s", xsb_text(&sb));
    sb_free(&sb);
    return EXIT_USAGE;
}

/* The value of the query's parameter NAME when it is text, else NULL. */
static const char *text_of(const struct saved_query *q, const struct param_value *vals, const char *name)
{
    for (int i = 0; i < q->nparams; i++)
        if (strcmp(q->params[i].name, name) == 0)
            return vals[i].sqlite_type == SQLITE_TEXT ? vals[i].s : NULL;
    return NULL;
}

/* What a side names, as the query's `by` says (run when it has none):
 * NAMES_RUN, NAMES_SOURCE, NAMES_HOST, NAMES_VARIANT, or NAMES_SIDE for a value of
 * attribute *key; NAMES_NOTHING when that cannot be checked (by = attr
 * without a key, or a `by` of another meaning). */
static enum param_names side_kind(const struct saved_query *q, const struct param_value *vals, const char **key)
{
    const char *by = text_of(q, vals, "by");
    *key = text_of(q, vals, "key");
    if (!by || strcmp(by, "run") == 0)
        return NAMES_RUN;
    if (strcmp(by, "source") == 0)
        return NAMES_SOURCE;
    if (strcmp(by, "host") == 0)
        return NAMES_HOST;
    if (strcmp(by, "variant") == 0)
        return NAMES_VARIANT;
    return strcmp(by, "attr") == 0 && *key ? NAMES_SIDE : NAMES_NOTHING;
}

/* A source that is none of ns (the stored sources) but a revision
 * abbreviated as git and the report pages show it (its first 7 or more
 * hexadecimal digits), as `benchdb compare --by source` takes it: 1 with
 * *whole the one source of ns it begins (malloc'd); 0 when it begins none;
 * -1 with *err when it begins several. */
static int source_of_prefix(const char *pname, const char *value, const char *plan, const struct names *ns,
                            char **whole, char **err)
{
    size_t n = strlen(value), k = 0, first = 0, second = 0;
    if (n < 7 || strspn(value, "0123456789abcdefABCDEF") != n)
        return 0;
    /* The two least in byte order, as compare --by source names them. */
    for (size_t i = 0; i < ns->n; i++)
        if (strncmp(ns->v[i], value, n) == 0) {
            if (k == 0 || strcmp(ns->v[i], ns->v[first]) < 0) {
                second = first;
                first = i;
            } else if (k == 1 || strcmp(ns->v[i], ns->v[second]) < 0)
                second = i;
            k++;
        }
    if (k > 1)
        return bd_fail(err, "%s: source '%s' abbreviates more than one revision%s%s (%s, %s%s): give more of it", pname,
                       value, plan ? " of plan " : "", plan ? plan : "", ns->v[first], ns->v[second],
                       k > 2 ? ", ..." : "");
    if (k == 1 && !(*whole = xstrdup(ns->v[first])))
        return bd_fail(err, "out of memory");
    return k == 1;
}

/* A metric named by its unit (value: as stored, or as compare shows it):
 * 1 with *own its metric (malloc'd) when one metric has the unit; 0 when
 * none has it; -1 with *err when several have it (which one is meant?). */
static int metric_of_unit(const char *pname, const char *value, const char *plan, const struct names *ns,
                          char **own, char **err)
{
    const char *of[8];
    size_t n = 0, more = 0;
    for (size_t i = 0; i + 1 < ns->nunit_of; i += 2) {
        if (strcmp(ns->unit_of[i], value) != 0)
            continue;
        size_t j = 0;
        while (j < n && strcmp(of[j], ns->unit_of[i + 1]) != 0)
            j++;
        if (j == n && n < 8)
            of[n++] = ns->unit_of[i + 1];
        else if (j == n)
            more++;
    }
    if (n == 1)
        return (*own = xstrdup(of[0])) ? 1 : bd_fail(err, "out of memory");
    if (n == 0)
        return 0;
    struct strbuf sb = {0};
    sb_printf(&sb, "%s: '%s' is the unit of several metrics%s%s: ", pname, value, plan ? " in plan " : "",
              plan ? plan : "");
    sb_put_name_list(&sb, of, n, 8);
    sb_printf(&sb, "%s; name one", more ? ", ..." : "");
    bd_fail(err, "%s", xsb_text(&sb));
    sb_free(&sb);
    return -1;
}

/* Checks one value of parameter pname naming a `kind`; *bound is set to
 * what it binds as when that differs (a metric's harness name; a source
 * abbreviated, whole: then *own holds it, malloc'd). */
static int check_one(struct db *db, const char *pname, enum param_names kind, const char *key, const char *value,
                     const char *plan, const char **bound, char **own, char **err)
{
    struct names ns;
    if (names_load(db, kind, plan, key, &ns, err)) {
        names_free(&ns);
        return EXIT_FAIL;
    }
    int found = kind == NAMES_METRIC && strcmp(value, "*") == 0; /* every metric */
    for (size_t k = 0; k < ns.nalias && !found; k++)
        if (strcmp(ns.alias[k], value) == 0) {
            *bound = "primary"; /* bound as the store names it */
            found = 1;
        }
    for (size_t k = 0; k < ns.n && !found; k++)
        found = strcmp(ns.v[k], value) == 0;
    if (!found && kind == NAMES_METRIC) {
        int k = metric_of_unit(pname, value, plan, &ns, own, err);
        if (k < 0) {
            names_free(&ns);
            return EXIT_USAGE;
        }
        if (k == 1) {
            *bound = *own;
            found = 1;
        }
    }
    int unscoped = kind == NAMES_PLAN || kind == NAMES_BENCHMARK || kind == NAMES_VARIANT || kind == NAMES_PARAMS;
    if (!found && kind == NAMES_SOURCE) {
        char *whole = NULL;
        int k = source_of_prefix(pname, value, unscoped ? NULL : plan, &ns, &whole, err);
        if (k < 0) {
            names_free(&ns);
            return EXIT_USAGE;
        }
        if (k == 1) {
            *bound = *own = whole;
            found = 1;
        }
    }
    int rc = found ? EXIT_OK : refuse(pname, kind, key, value, unscoped ? NULL : plan, &ns, err);
    names_free(&ns);
    return rc;
}

/* Each side of a comma-separated list (as the query splits it: at every
 * comma, nothing trimmed): each must exist, once (an abbreviated source
 * counts as the one it abbreviates); an empty piece (a,,b or a trailing
 * comma) is refused, as the query would show it as a side. When a piece is
 * an abbreviated source, *own is the list with it whole (malloc'd). */
static int check_sides(struct db *db, const char *pname, enum param_names kind, const char *key, const char *list,
                       const char *plan, char **own, char **err)
{
    char *copy = xstrdup(list);
    if (!copy)
        return bd_fail(err, "out of memory"), EXIT_FAIL;
    int rc = EXIT_OK, completed = 0;
    struct strbuf whole = {0};
    sb_puts(&whole, "");
    for (char *piece = copy, *next; piece && rc == EXIT_OK; piece = next) {
        if ((next = strchr(piece, ',')) != NULL)
            *next++ = 0;
        if (!*piece) {
            /* the query would show an empty name as one more side, without values */
            bd_fail(err, "%s: '%s' holds an empty name (a comma-separated list of names; null for every one)", pname,
                    list);
            rc = EXIT_USAGE;
            break;
        }
        const char *bound = piece;
        char *full = NULL;
        rc = check_one(db, pname, kind, key, piece, plan, &bound, &full, err);
        /* the same side twice (whole or abbreviated) would be shown twice, its change 0% */
        for (const char *q = whole.buf; rc == EXIT_OK && q && *q; q += strcspn(q, ",") + (q[strcspn(q, ",")] != 0))
            if (strncmp(q, bound, strcspn(q, ",")) == 0 && bound[strcspn(q, ",")] == 0) {
                bd_fail(err, "%s: '%s' is given twice in '%s'", pname, piece, list);
                rc = EXIT_USAGE;
            }
        if (rc == EXIT_OK)
            sb_printf(&whole, "%s%s", piece == copy ? "" : ",", bound);
        completed |= full != NULL;
        free(full);
    }
    free(copy);
    if (rc == EXIT_OK && completed)
        *own = xsb_detach(&whole);
    sb_free(&whole);
    return rc;
}

int param_check_names(struct db *db, const struct saved_query *q, const struct params *given,
                      struct param_value *vals, char **err)
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
            const char *key = NULL;
            enum param_names kind = p->type.names;
            if (kind == NAMES_SIDE || kind == NAMES_SIDES)
                kind = side_kind(q, vals, &key);
            int rc = kind == NAMES_NOTHING ? EXIT_OK
                     : p->type.names == NAMES_SIDES
                         ? check_sides(db, p->name, kind, key, value, plan, &vals[i].own, err)
                         : check_one(db, p->name, kind, key, value, plan, &vals[i].s, &vals[i].own, err);
            if (rc != EXIT_OK)
                return rc;
            if (vals[i].own)
                vals[i].s = vals[i].own;
        }
    return EXIT_OK;
}

int param_check_name(struct db *db, enum param_names kind, const char *value, const char *plan, char **err)
{
    const char *unused = NULL;
    char *whole = NULL;
    int rc = check_one(db, param_names_kind(kind), kind, NULL, value, plan, &unused, &whole, err);
    free(whole);
    return rc;
}

/* ---- why a query returned no rows ---- */

/* The column a name of each kind is in, in the join below. */
static const char *const names_column[] = {
    [NAMES_PLAN] = "p.name", [NAMES_RUN] = "r.name", [NAMES_HOST] = "h.name", [NAMES_METRIC] = "se.metric",
    [NAMES_BENCHMARK] = "b.name", [NAMES_SOURCE] = "r.source", [NAMES_VARIANT] = "v.name",
    [NAMES_PARAMS] = "b.params",
};

/* Whether some measured value has every name of filters[0..n). 1, 0, or
 * -1 on an error. */
static int values_exist(struct db *db, const struct saved_param *const *ps, const char *const *values, int n)
{
    struct strbuf sql = {0};
    sb_puts(&sql, "SELECT 1 FROM series se JOIN run r ON r.id = se.run_id JOIN plan p ON p.id = r.plan_id "
                  "JOIN host h ON h.id = r.host_id JOIN benchmark b ON b.id = se.benchmark_id "
                  "JOIN variant v ON v.id = se.variant_id WHERE se.n > 0");
    for (int i = 0; i < n; i++)
        sb_printf(&sql, " AND %s = ?%d", names_column[ps[i]->type.names], i + 1);
    sb_puts(&sql, " LIMIT 1");
    struct db_stmt *st = NULL;
    int rc = -1;
    if (db_prepare(db, xsb_text(&sql), &st) == SQLITE_OK) {
        int brc = SQLITE_OK;
        for (int i = 0; i < n && brc == SQLITE_OK; i++)
            brc = db_bind_text(st, i + 1, values[i], -1);
        int step = brc == SQLITE_OK ? db_step(st) : brc;
        rc = step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
    }
    db_finalize(st);
    sb_free(&sql);
    return rc;
}

char *param_explain_empty(struct db *db, const struct saved_query *q, const struct param_value *vals)
{
    const struct saved_param *ps[32];
    const char *values[32];
    int n = 0, pp = plan_param(q);
    /* The plan first, then the others in the header's order. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < q->nparams && n < 32; i++) {
            const struct saved_param *p = &q->params[i];
            if ((i == pp) != (pass == 0) || p->type.names == NAMES_NOTHING || p->type.names == NAMES_ATTRIBUTE ||
                p->type.names == NAMES_SIDE || p->type.names == NAMES_SIDES ||
                vals[i].sqlite_type != SQLITE_TEXT || (p->type.names == NAMES_METRIC && strcmp(vals[i].s, "*") == 0))
                continue;
            ps[n] = p;
            values[n++] = vals[i].s;
        }
    for (int k = 1; k <= n; k++) {
        int found = values_exist(db, ps, values, k);
        if (found < 0)
            return NULL;
        if (found)
            continue;
        struct strbuf sb = {0};
        sb_puts(&sb, "no measured value has ");
        for (int i = 0; i < k; i++)
            sb_printf(&sb, "%s%s '%s'", i == 0 ? "" : i + 1 == k ? " and " : ", ", param_names_kind(ps[i]->type.names),
                      values[i]);
        if (k > 1)
            sb_puts(&sb, " together");
        return xsb_detach(&sb);
    }
    return NULL;
}
