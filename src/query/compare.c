/* 'benchdb compare' around the saved query `compare`: which plan holds the
 * two sides, and benchstat's tables made from the query's rows. The
 * statistics are all in queries/compare.sql; this file only finds and
 * prints. */
#include "query/compare.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/units.h"

#include "util/diag.h"
#include "util/natural.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

char *compare_side_text(const struct compare_sides *s, const char *name)
{
    if (strcmp(s->by, "attr") == 0)
        return bd_strdupf("attribute %s = '%s'", s->key ? s->key : "?", name);
    return bd_strdupf("%s '%s'", s->by, name);
}

/* ---- finding the plan ---------------------------------------------------- */

/* The plans (name order) holding side ?1 (?2: the attribute; ?3: only this
 * plan when not NULL). */
static const char *plans_sql(const char *by)
{
    if (strcmp(by, "run") == 0)
        return "SELECT p.name FROM plan p WHERE (CAST(?3 AS TEXT) IS NULL OR p.name = ?3) AND "
               "EXISTS (SELECT 1 FROM run r WHERE r.plan_id = p.id AND r.name = ?1) ORDER BY p.name";
    if (strcmp(by, "source") == 0)
        return "SELECT p.name FROM plan p WHERE (CAST(?3 AS TEXT) IS NULL OR p.name = ?3) AND "
               "EXISTS (SELECT 1 FROM run r WHERE r.plan_id = p.id AND r.source = ?1) ORDER BY p.name";
    if (strcmp(by, "host") == 0)
        return "SELECT p.name FROM plan p WHERE (CAST(?3 AS TEXT) IS NULL OR p.name = ?3) AND "
               "EXISTS (SELECT 1 FROM run r JOIN host h ON h.id = r.host_id WHERE r.plan_id = p.id AND h.name = ?1) "
               "ORDER BY p.name";
    if (strcmp(by, "attr") == 0)
        return "SELECT p.name FROM plan p WHERE (CAST(?3 AS TEXT) IS NULL OR p.name = ?3) AND "
               "EXISTS (SELECT 1 FROM run r WHERE r.plan_id = p.id AND CAST(r.attributes ->> CAST(?2 AS TEXT) AS TEXT) = ?1) "
               "ORDER BY p.name";
    return "SELECT p.name FROM plan p WHERE (CAST(?3 AS TEXT) IS NULL OR p.name = ?3) AND "
           "EXISTS (SELECT 1 FROM run r JOIN series se ON se.run_id = r.id JOIN variant v ON v.id = se.variant_id "
           "WHERE r.plan_id = p.id AND v.name = ?1) ORDER BY p.name";
}

struct names {
    char **v;
    size_t n;
};

static void names_free(struct names *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
    ns->v = NULL;
    ns->n = 0;
}

/* ---- units as shown -------------------------------------------------------- */

int compare_expand_units(struct db *db, const char *plan, const char *list, char **out, char **err)
{
    *out = NULL;
    struct db_stmt *st;
    if (db_prepare(db, "SELECT DISTINCT se.unit FROM series se JOIN run r ON r.id = se.run_id "
                       "JOIN plan p ON p.id = r.plan_id WHERE p.name = ?1 ORDER BY 1", &st) != SQLITE_OK)
        return bd_fail(err, "compare: %s", db_errmsg(db));
    db_bind_text(st, 1, plan, -1);
    struct names units = {0};
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *u = (const char *)db_column_text(st, 0);
        char **v = u ? xreallocarray(units.v, units.n + 1, sizeof *v) : NULL;
        if (u && (!v || !(v[units.n] = xstrdup(u)))) {
            if (v)
                units.v = v;
            rc = SQLITE_NOMEM;
            break;
        }
        if (u)
            units.v = v, units.n++;
    }
    db_finalize(st);
    if (rc != SQLITE_DONE) {
        names_free(&units);
        return bd_fail(err, "compare: %s", rc == SQLITE_NOMEM ? "out of memory" : db_errmsg(db));
    }
    struct strbuf sb = {0};
    sb_puts(&sb, "");
    int changed = 0;
    const char *p, *cur = list;
    size_t len;
    char shown[256];
    while (list_next(&cur, &p, &len)) {
        int stored = 0, as_shown = 0;
        for (size_t i = 0; i < units.n && !stored; i++)
            stored = strlen(units.v[i]) == len && memcmp(units.v[i], p, len) == 0;
        for (size_t i = 0; i < units.n && !stored; i++) {
            cmp_tidy_any(units.v[i], shown, sizeof shown);
            if (strlen(shown) == len && memcmp(shown, p, len) == 0) {
                sb_printf(&sb, "%s%s", sb.len ? "," : "", units.v[i]);
                as_shown = changed = 1;
            }
        }
        if (!as_shown && len)
            sb_printf(&sb, "%s%.*s", sb.len ? "," : "", (int)len, p);
    }
    names_free(&units);
    if (sb.failed) {
        sb_free(&sb);
        return bd_fail(err, "compare: out of memory");
    }
    if (changed)
        *out = xsb_detach(&sb);
    sb_free(&sb);
    return 0;
}

static int plans_with(struct db *db, const struct compare_sides *s, const char *side, const char *plan,
                      struct names *out, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, plans_sql(s->by), &st) != SQLITE_OK)
        return bd_fail(err, "compare: %s", db_errmsg(db)) * 2;
    db_bind_text(st, 1, side, -1);
    if (s->key)
        db_bind_text(st, 2, s->key, -1);
    if (plan)
        db_bind_text(st, 3, plan, -1);
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        char **v = xreallocarray(out->v, out->n + 1, sizeof *v);
        if (!v || !(v[out->n] = xstrdup((const char *)db_column_text(st, 0)))) {
            out->v = v ? v : out->v;
            db_finalize(st);
            return bd_fail(err, "compare: out of memory") * 2;
        }
        out->v = v;
        out->n++;
    }
    db_finalize(st);
    if (rc != SQLITE_DONE)
        return bd_fail(err, "compare: %s", db_errmsg(db)) * 2;
    return 0;
}

/* The names a side can take (?2: the attribute; ?3: only in this plan
 * when not NULL), for a suggestion. */
static const char *sides_sql(const char *by)
{
    if (strcmp(by, "run") == 0)
        return "SELECT DISTINCT r.name FROM run r JOIN plan p ON p.id = r.plan_id "
               "WHERE CAST(?3 AS TEXT) IS NULL OR p.name = ?3";
    if (strcmp(by, "host") == 0)
        return "SELECT DISTINCT h.name FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id "
               "WHERE CAST(?3 AS TEXT) IS NULL OR p.name = ?3";
    if (strcmp(by, "source") == 0)
        return "SELECT DISTINCT r.source FROM run r JOIN plan p ON p.id = r.plan_id "
               "WHERE r.source IS NOT NULL AND (CAST(?3 AS TEXT) IS NULL OR p.name = ?3)";
    if (strcmp(by, "attr") == 0)
        return "SELECT DISTINCT CAST(r.attributes ->> CAST(?2 AS TEXT) AS TEXT) FROM run r JOIN plan p ON p.id = r.plan_id "
               "WHERE r.attributes ->> CAST(?2 AS TEXT) IS NOT NULL AND (CAST(?3 AS TEXT) IS NULL OR p.name = ?3)";
    if (strcmp(by, "plan") == 0)
        return "SELECT name FROM plan WHERE CAST(?2 AS TEXT) IS NULL OR CAST(?3 AS TEXT) IS NULL OR name <> ?3";
    return "SELECT name FROM variant WHERE CAST(?2 AS TEXT) IS NULL OR CAST(?3 AS TEXT) IS NULL OR name <> ?3";
}

/* "; runs of plan P: a, b" or "; did you mean 'x'?" after *err, the names
 * of kind `by` there are (nearest first when they are many). 0, or -2 with
 * *err replaced on a database error. */
static int suggest_side(struct db *db, const char *by, const char *key, const char *name, const char *plan,
                        char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, sides_sql(by), &st) != SQLITE_OK)
        return 0;
    if (key)
        db_bind_text(st, 2, key, -1);
    if (plan)
        db_bind_text(st, 3, plan, -1);
    struct names ns = {0};
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        char **v = xreallocarray(ns.v, ns.n + 1, sizeof *v);
        if (!v)
            break;
        ns.v = v;
        if (!(ns.v[ns.n] = xstrdup(t ? t : "")))
            break;
        ns.n++;
    }
    db_finalize(st);
    natural_sort((const char **)ns.v, ns.n);
    enum { SHOWN = 10 };
    const char *nearest[SHOWN];
    const char *near = suggest_closest(name, (const char *const *)ns.v, ns.n);
    size_t k = ns.n > SHOWN ? suggest_nearest(name, (const char *const *)ns.v, ns.n, nearest, SHOWN) : ns.n;
    struct strbuf sb = {0};
    sb_puts(&sb, *err);
    if (near)
        sb_printf(&sb, "; did you mean '%s'?", near);
    else {
        const char *what = strcmp(by, "attr") == 0 ? "values of the attribute" : strcmp(by, "plan") == 0 ? "plans" : NULL;
        sb_printf(&sb, "; %s%s%s%s%s: ", ns.n > SHOWN ? "the nearest " : "", what ? what : by, what ? "" : "s",
                  plan && strcmp(by, "plan") != 0 ? " of plan " : "", plan && strcmp(by, "plan") != 0 ? plan : "");
        sb_put_name_list(&sb, ns.n > SHOWN ? nearest : (const char *const *)ns.v, k, SHOWN);
    }
    names_free(&ns);
    if (sb.buf) {
        free(*err);
        *err = xsb_detach(&sb);
    }
    return 0;
}

static int plan_exists(struct db *db, const char *plan, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT 1 FROM plan WHERE name = ?", &st) != SQLITE_OK)
        return bd_fail(err, "compare: %s", db_errmsg(db)) * 2;
    db_bind_text(st, 1, plan, -1);
    int rc = db_step(st);
    db_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc != SQLITE_DONE)
        return bd_fail(err, "compare: %s", db_errmsg(db)) * 2;
    bd_fail(err, "compare: there is no plan '%s'", plan);
    suggest_side(db, "plan", NULL, plan, NULL, err);
    return -1;
}

/* The stored sources that start with side (up to three), when side is
 * not a source itself and is a revision abbreviated as git and benchdb's
 * pages show it (7 hexadecimal digits or more): how many, each malloc'd
 * in full[]. */
static int sources_of_prefix(struct db *db, const char *side, const char *plan, char *full[3])
{
    full[0] = full[1] = full[2] = NULL;
    size_t n = strlen(side);
    if (n < 7 || strspn(side, "0123456789abcdefABCDEF") != n)
        return 0;
    struct db_stmt *st;
    if (db_prepare(db,
                   "SELECT DISTINCT r.source FROM run r JOIN plan p ON p.id = r.plan_id "
                   "WHERE substr(r.source, 1, length(CAST(?1 AS TEXT))) = CAST(?1 AS TEXT) "
                   "AND (CAST(?2 AS TEXT) IS NULL OR p.name = ?2) ORDER BY 1 LIMIT 3",
                   &st) != SQLITE_OK)
        return 0;
    db_bind_text(st, 1, side, -1);
    if (plan)
        db_bind_text(st, 2, plan, -1);
    int k = 0;
    while (k < 3 && db_step(st) == SQLITE_ROW)
        full[k++] = xstrdup((const char *)db_column_text(st, 0));
    db_finalize(st);
    for (int i = 0; i < k; i++)
        if (strcmp(full[i], side) == 0) { /* the source itself, even where it abbreviates another too */
            for (int j = 0; j < k; j++) {
                free(full[j]);
                full[j] = NULL;
            }
            return 0;
        }
    return k;
}

static int expand_side(struct db *db, const char **side, const char *plan, char **owned, char **err)
{
    char *full[3];
    int k = sources_of_prefix(db, *side, plan, full);
    if (k > 1) {
        bd_fail(err, "compare: source '%s' abbreviates more than one revision%s%s (%s, %s%s): give more of it",
                *side, plan ? " of plan " : "", plan ? plan : "", full[0], full[1], k > 2 ? ", ..." : "");
        for (int i = 0; i < k; i++)
            free(full[i]);
        return -1;
    }
    if (k == 1)
        *side = *owned = full[0];
    return 0;
}

int compare_expand_sources(struct db *db, struct compare_sides *s, const char *plan, char **a, char **b, char **err)
{
    *a = *b = NULL;
    if (strcmp(s->by, "source") != 0)
        return 0;
    return expand_side(db, &s->a, plan, a, err) || expand_side(db, &s->b, plan, b, err) ? -1 : 0;
}

int compare_find_plan(struct db *db, const struct compare_sides *s, char **plan, char **err)
{
    struct names pa = {0}, pb = {0};
    int rc;
    if (*plan && (rc = plan_exists(db, *plan, err)) != 0)
        return rc;
    if ((rc = plans_with(db, s, s->a, *plan, &pa, err)) != 0 || (rc = plans_with(db, s, s->b, *plan, &pb, err)) != 0)
        goto out;
    char *ta = compare_side_text(s, s->a), *tb = compare_side_text(s, s->b);
    if (*plan) {
        if (!pa.n || !pb.n) {
            rc = bd_fail(err, "compare: plan '%s' has no %s", *plan, !pa.n ? ta : tb);
            suggest_side(db, s->by, s->key, !pa.n ? s->a : s->b, *plan, err);
        }
    } else {
        struct strbuf both = {0};
        size_t n = 0;
        const char *one = NULL;
        for (size_t i = 0; i < pa.n; i++)
            for (size_t j = 0; j < pb.n; j++)
                if (strcmp(pa.v[i], pb.v[j]) == 0) {
                    sb_printf(&both, "%s%s", n ? ", " : "", pa.v[i]);
                    one = pa.v[i];
                    n++;
                }
        if (n == 1)
            *plan = xstrdup(one);
        else if (n == 0 && (!pa.n || !pb.n)) {
            rc = bd_fail(err, "compare: no plan has %s", !pa.n ? ta : tb);
            suggest_side(db, s->by, s->key, !pa.n ? s->a : s->b, NULL, err);
        }
        else if (n == 0)
            rc = bd_fail(err, "compare: no plan has both %s and %s", ta, tb);
        else
            rc = bd_fail(err, "compare: %s and %s are in %zu plans (%s): choose one with --plan", ta, tb, n,
                         xsb_text(&both));
        sb_free(&both);
        if (n == 1 && !*plan)
            rc = bd_fail(err, "compare: out of memory") * 2;
    }
    free(ta);
    free(tb);
out:
    names_free(&pa);
    names_free(&pb);
    return rc;
}

