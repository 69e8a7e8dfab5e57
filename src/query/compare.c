/* 'benchdb compare' around the saved query `compare`: which plan holds the
 * two sides, and benchstat's tables made from the query's rows. The
 * statistics are all in queries/compare.sql; this file only finds and
 * prints. */
#include "query/compare.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/strbuf.h"

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
        char **v = realloc(out->v, (out->n + 1) * sizeof *v);
        if (!v || !(v[out->n] = strdup((const char *)db_column_text(st, 0)))) {
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
    return bd_fail(err, "compare: there is no plan '%s'", plan);
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
            *plan = strdup(one);
        else if (n == 0 && (!pa.n || !pb.n))
            rc = bd_fail(err, "compare: no plan has %s", !pa.n ? ta : tb);
        else if (n == 0)
            rc = bd_fail(err, "compare: no plan has both %s and %s", ta, tb);
        else
            rc = bd_fail(err, "compare: %s and %s are in %zu plans (%s): choose one with --plan", ta, tb, n,
                         both.buf);
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

/* ---- printing ------------------------------------------------------------ */

enum col {
    C_KIND, C_BENCHMARK, C_PARAMS, C_VARIANT, C_METRIC, C_UNIT, C_N_A, C_MEDIAN_A, C_PM_A, C_N_B, C_MEDIAN_B,
    C_PM_B, C_CHANGE, C_CHANGE_LO, C_CHANGE_HI, C_P, C_P_ADJUSTED, C_VERDICT, C_WARNINGS, NCOLS
};
static const char *const col_names[NCOLS] = {
    "kind", "benchmark", "params", "variant", "metric", "unit", "n_a", "median_a", "pm_a", "n_b", "median_b",
    "pm_b", "change", "change_lo", "change_hi", "p", "p_adjusted", "verdict", "warnings",
};

/* The printed table's columns. */
enum { T_LABEL, T_A, T_B, T_CHANGE, T_CI, T_P, T_N, T_VERDICT, TCOLS };

struct view {
    const struct rowset *rs;
    int col[NCOLS];
};

static sqlite3_value *at(const struct view *v, size_t r, enum col c)
{
    return rowset_cell(v->rs, r, v->col[c]);
}

static const char *text_at(const struct view *v, size_t r, enum col c)
{
    sqlite3_value *x = at(v, r, c);
    return sqlite3_value_type(x) == SQLITE_NULL ? NULL : (const char *)sqlite3_value_text(x);
}

static int null_at(const struct view *v, size_t r, enum col c)
{
    return sqlite3_value_type(at(v, r, c)) == SQLITE_NULL;
}

static double num_at(const struct view *v, size_t r, enum col c)
{
    return sqlite3_value_double(at(v, r, c));
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Display width in terminal columns: UTF-8 code points (as output.c). */
static size_t width_of(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* Byte offset of the code point with index k. */
static size_t offset_of(const char *s, size_t k)
{
    size_t i = 0;
    for (; s[i] && k; i++)
        if (((unsigned char)s[i + 1] & 0xC0) != 0x80)
            k--;
    while (s[i] && ((unsigned char)s[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* s shortened in the middle to w columns ("CRC32/po…align=0"). */
static char *elide(const char *s, size_t w)
{
    size_t have = width_of(s);
    if (have <= w || w < 3)
        return strdup(s);
    size_t head = (w - 1) / 2, tail = w - 1 - head;
    size_t hb = offset_of(s, head), tb = offset_of(s, have - tail);
    return bd_strdupf("%.*s…%s", (int)hb, s, s + tb);
}

/* A number with about four significant digits: 46.55, 1718, 0.01234;
 * exponent form outside 0.001 to 1e9. */
static void fmt_num(char *buf, size_t size, double x)
{
    double ax = fabs(x);
    if (x == 0)
        snprintf(buf, size, "0");
    else if (ax < 1e-3 || ax >= 1e9)
        snprintf(buf, size, "%.3e", x);
    else {
        int decimals = 3 - (int)floor(log10(ax));
        snprintf(buf, size, "%.*f", decimals < 0 ? 0 : decimals, x);
    }
}

/* printf into a new string of at most 63 bytes (cells of the table:
 * cheaper than bd_strdupf's two passes, a thousand rows at a time). */
static char *cellf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *cellf(const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

/* benchstat's superscript note marks. */
static const char *const marks[] = {"¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

static void note_label(struct strbuf *sb, size_t k)
{
    if (k < sizeof marks / sizeof marks[0])
        sb_puts(sb, marks[k]);
    else
        sb_printf(sb, "(%zu)", k + 1);
}

struct notes {
    char **msg;
    size_t n;
};

/* The marks of a row's warnings (newline-separated), adding new texts. */
static char *note_marks(struct notes *nt, const char *warnings)
{
    struct strbuf sb = {0};
    sb_puts(&sb, "");
    for (const char *p = warnings; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t k;
        for (k = 0; k < nt->n; k++)
            if (strlen(nt->msg[k]) == len && memcmp(nt->msg[k], p, len) == 0)
                break;
        if (k == nt->n) {
            char **v = realloc(nt->msg, (nt->n + 1) * sizeof *v);
            if (v) {
                nt->msg = v;
                nt->msg[nt->n++] = strndup(p, len);
            }
        }
        if (k < nt->n)
            note_label(&sb, k);
        p = e ? e + 1 : p + len;
    }
    return sb_detach(&sb);
}

/* The params of a cell other than those shared by the whole table, as
 * "key=value ...". */
static void params_label(struct strbuf *sb, json_t *params, json_t *common)
{
    const char *k;
    json_t *val;
    json_object_foreach(params, k, val) {
        json_t *c = json_object_get(common, k);
        if (c && json_equal(c, val))
            continue;
        sb_printf(sb, " %s=", k);
        if (json_is_string(val))
            sb_puts(sb, json_string_value(val));
        else {
            char *t = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
            sb_puts(sb, t ? t : "?");
            free(t);
        }
    }
}

/* One table: rows [r0, r1) of one metric and unit. */
static int print_table(const struct view *v, size_t r0, size_t r1, const struct compare_sides *s,
                       const char *adjust, double level, int width, FILE *out)
{
    size_t nr = r1 - r0 + 1; /* + header */
    char **cell = calloc(nr * TCOLS, sizeof *cell);
    char **rowmarks = calloc(nr, sizeof *rowmarks);
    json_t **params = calloc(nr, sizeof *params);
    struct notes nt = {0};
    int rc = -1;
    if (!cell || !rowmarks || !params)
        goto out;

    /* Params shared by every cell of the table go above it; a name prefix
     * "Benchmark" shared by all is dropped, as benchstat does. */
    json_t *common = NULL;
    int strip = 1, seen_variant = 0, variants_differ = 0, same_n = 1;
    const char *variant0 = NULL, *params_text = NULL;
    size_t params_row = 0;
    long long n0 = -1;
    for (size_t r = r0; r < r1; r++) {
        if (strcmp(text_at(v, r, C_KIND), "cell") != 0)
            continue;
        const char *name = text_at(v, r, C_BENCHMARK), *pj = text_at(v, r, C_PARAMS);
        /* Cells often share their params: parse a text once. */
        if (pj && params_text && strcmp(pj, params_text) == 0)
            params[r - r0] = json_incref(params[params_row]);
        else {
            params[r - r0] = pj ? json_loads(pj, 0, NULL) : NULL;
            params_text = pj;
            params_row = r - r0;
        }
        if (!params[r - r0])
            params[r - r0] = json_object();
        if (!common) {
            common = json_deep_copy(params[r - r0]);
        } else {
            const char *k;
            void *tmp;
            json_t *val;
            json_object_foreach_safe(common, tmp, k, val) {
                json_t *o = json_object_get(params[r - r0], k);
                if (!o || !json_equal(o, val))
                    json_object_del(common, k);
            }
        }
        strip &= name && strncmp(name, "Benchmark", 9) == 0 && name[9];
        const char *vn = text_at(v, r, C_VARIANT);
        if (!seen_variant) {
            variant0 = vn;
            seen_variant = 1;
        }
        variants_differ |= !same_text(vn, variant0);
        long long na = sqlite3_value_int64(at(v, r, C_N_A)), nb = sqlite3_value_int64(at(v, r, C_N_B));
        if (na && nb) {
            if (n0 < 0)
                n0 = na;
            same_n &= na == n0 && nb == n0;
        }
    }

    const char *metric = text_at(v, r0, C_METRIC), *unit = text_at(v, r0, C_UNIT);
    int adjusted = adjust && strcmp(adjust, "none") != 0;
    /* The header row. */
    if (!metric || strcmp(metric, "primary") == 0 || same_text(metric, unit))
        cell[T_LABEL] = strdup(unit ? unit : "");
    else
        cell[T_LABEL] = bd_strdupf("%s (%s)", metric, unit ? unit : "");
    cell[T_A] = strdup(s->a);
    cell[T_B] = strdup(s->b);
    cell[T_CHANGE] = strdup("change");
    cell[T_CI] = bd_strdupf("%g%% CI", level * 100);
    cell[T_P] = adjusted ? bd_strdupf("p (%s)", adjust) : strdup("p");
    cell[T_N] = strdup("n");
    cell[T_VERDICT] = strdup("");
    rowmarks[0] = strdup("");

    size_t ncells = 0;
    for (size_t r = r0; r < r1; r++)
        ncells += strcmp(text_at(v, r, C_KIND), "cell") == 0;
    for (size_t r = r0; r < r1; r++) {
        char **c = cell + (r - r0 + 1) * TCOLS;
        char a[64], b[64], num[40];
        int geomean = strcmp(text_at(v, r, C_KIND), "cell") != 0;
        if (geomean && ncells < 2) {
            /* As benchstat: no geomean row under a single row. */
            for (int k = 0; k < TCOLS; k++)
                c[k] = NULL;
            rowmarks[r - r0 + 1] = NULL;
            continue;
        }
        const char *warnings = text_at(v, r, C_WARNINGS);
        int unbounded = warnings && strstr(warnings, "samples for confidence interval");
        struct strbuf label = {0};
        if (geomean) {
            sb_puts(&label, "geomean");
        } else {
            const char *name = text_at(v, r, C_BENCHMARK);
            sb_puts(&label, name ? name + (strip ? 9 : 0) : "");
            params_label(&label, params[r - r0], common);
            if (variants_differ && text_at(v, r, C_VARIANT))
                sb_printf(&label, " (%s)", text_at(v, r, C_VARIANT));
        }
        c[T_LABEL] = sb_detach(&label);
        for (int side = 0; side < 2; side++) {
            enum col cm = side ? C_MEDIAN_B : C_MEDIAN_A, cp = side ? C_PM_B : C_PM_A;
            char *dst = side ? b : a;
            if (null_at(v, r, cm)) {
                snprintf(dst, 64, "%s", geomean && sqlite3_value_int64(at(v, r, side ? C_N_B : C_N_A)) ? "?" : "");
                continue;
            }
            fmt_num(num, sizeof num, num_at(v, r, cm));
            if (geomean)
                snprintf(dst, 64, "%s", num);
            else if (null_at(v, r, cp))
                snprintf(dst, 64, "%s ± %s", num, unbounded ? "∞" : "?");
            else
                snprintf(dst, 64, "%s ± %.0f%%", num, num_at(v, r, cp));
        }
        c[T_A] = strdup(a);
        c[T_B] = strdup(b);
        const char *verdict = text_at(v, r, C_VERDICT);
        int both = !null_at(v, r, C_MEDIAN_A) && !null_at(v, r, C_MEDIAN_B);
        if (geomean)
            c[T_CHANGE] = !null_at(v, r, C_CHANGE) ? cellf("%+.2f%%", num_at(v, r, C_CHANGE))
                          : sqlite3_value_int64(at(v, r, C_N_A)) && sqlite3_value_int64(at(v, r, C_N_B)) ? strdup("?")
                                                                                                      : strdup("");
        else if (!both)
            c[T_CHANGE] = strdup("");
        else if (verdict && strcmp(verdict, "~") == 0)
            c[T_CHANGE] = strdup("~");
        else if (null_at(v, r, C_CHANGE))
            c[T_CHANGE] = strdup("?");
        else if (num_at(v, r, C_CHANGE) == 0)
            c[T_CHANGE] = strdup("0.00%");
        else
            c[T_CHANGE] = cellf("%+.2f%%", num_at(v, r, C_CHANGE));
        if (!null_at(v, r, C_CHANGE_LO) && !null_at(v, r, C_CHANGE_HI))
            c[T_CI] = cellf("[%+.1f, %+.1f]", num_at(v, r, C_CHANGE_LO), num_at(v, r, C_CHANGE_HI));
        else
            c[T_CI] = strdup("");
        enum col pc = adjusted ? C_P_ADJUSTED : C_P;
        c[T_P] = null_at(v, r, pc) ? strdup("") : cellf("%.3f", num_at(v, r, pc));
        long long na = sqlite3_value_int64(at(v, r, C_N_A)), nb = sqlite3_value_int64(at(v, r, C_N_B));
        c[T_N] = geomean || (!na && !nb) ? strdup("") : na == nb ? cellf("%lld", na)
                                                                  : cellf("%lld+%lld", na, nb);
        c[T_VERDICT] = strdup(verdict && strcmp(verdict, "~") != 0 && strcmp(verdict, "same") != 0 &&
                                      strcmp(verdict, "?") != 0
                                  ? verdict
                                  : "");
        rowmarks[r - r0 + 1] = note_marks(&nt, warnings);
    }

    /* Widths; the n column only when sizes differ between cells (else n
     * is said above the table); labels shortened to fit `width`. */
    size_t w[TCOLS] = {0}, markw = 0;
    for (size_t i = 0; i < nr; i++) {
        for (int k = 0; k < TCOLS; k++)
            if (cell[i * TCOLS + k] && width_of(cell[i * TCOLS + k]) > w[k])
                w[k] = width_of(cell[i * TCOLS + k]);
        if (rowmarks[i] && width_of(rowmarks[i]) > markw)
            markw = width_of(rowmarks[i]);
    }
    int show[TCOLS];
    for (int k = 0; k < TCOLS; k++)
        show[k] = w[k] > 0 && !(k == T_N && same_n && n0 >= 0) && !(k == T_VERDICT && w[k] == 0);
    show[T_LABEL] = 1;
    size_t rest = 0;
    for (int k = 1; k < TCOLS; k++)
        if (show[k])
            rest += 2 + w[k];
    rest += markw ? 1 + markw : 0;
    if (w[T_LABEL] + rest > (size_t)width)
        w[T_LABEL] = (size_t)width > rest + 16 ? (size_t)width - rest : 16;

    if (json_object_size(common) || (same_n && n0 >= 0)) {
        struct strbuf head = {0};
        const char *k;
        json_t *val;
        json_object_foreach(common, k, val) {
            if (json_is_string(val))
                sb_printf(&head, "%s%s: %s", head.len ? "  " : "", k, json_string_value(val));
            else {
                char *t = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
                sb_printf(&head, "%s%s: %s", head.len ? "  " : "", k, t ? t : "?");
                free(t);
            }
        }
        if (same_n && n0 >= 0)
            sb_printf(&head, "%sn: %lld per side", head.len ? "  " : "", n0);
        fprintf(out, "%s\n", head.buf);
        sb_free(&head);
    }
    for (size_t i = 0; i < nr; i++) {
        if (!cell[i * TCOLS + T_LABEL])
            continue;
        struct strbuf line = {0};
        char *label = elide(cell[i * TCOLS + T_LABEL], w[T_LABEL]);
        sb_puts(&line, label);
        for (size_t pad = width_of(label); pad < w[T_LABEL]; pad++)
            sb_putc(&line, ' ');
        free(label);
        for (int k = 1; k < TCOLS; k++) {
            if (!show[k])
                continue;
            const char *t = cell[i * TCOLS + k];
            sb_puts(&line, "  ");
            if (k == T_VERDICT) {
                sb_puts(&line, t);
                for (size_t pad = width_of(t); pad < w[k]; pad++)
                    sb_putc(&line, ' ');
            } else {
                for (size_t pad = width_of(t); pad < w[k]; pad++)
                    sb_putc(&line, ' ');
                sb_puts(&line, t);
            }
        }
        if (*rowmarks[i]) {
            sb_putc(&line, ' ');
            sb_puts(&line, rowmarks[i]);
        }
        while (line.len && line.buf[line.len - 1] == ' ')
            line.buf[--line.len] = 0;
        fprintf(out, "%s\n", line.buf);
        sb_free(&line);
    }
    for (size_t k = 0; k < nt.n; k++) {
        struct strbuf note = {0};
        note_label(&note, k);
        fprintf(out, "%s %s\n", note.buf, nt.msg[k]);
        sb_free(&note);
    }
    json_decref(common);
    rc = ferror(out) ? -1 : 0;
out:
    for (size_t i = 0; cell && i < nr * TCOLS; i++)
        free(cell[i]);
    for (size_t i = 0; rowmarks && i < nr; i++)
        free(rowmarks[i]);
    for (size_t i = 0; params && i < nr; i++)
        json_decref(params[i]);
    for (size_t k = 0; k < nt.n; k++)
        free(nt.msg[k]);
    free(nt.msg);
    free(cell);
    free(rowmarks);
    free(params);
    return rc;
}

int compare_print(const struct rowset *rs, const struct compare_sides *s, const char *adjust, double level,
                  int width, FILE *out)
{
    struct view v = {.rs = rs};
    for (int c = 0; c < NCOLS; c++) {
        v.col[c] = -1;
        for (int k = 0; k < rs->ncol; k++)
            if (strcmp(rs->names[k], col_names[c]) == 0)
                v.col[c] = k;
        if (v.col[c] < 0)
            return 1;
    }
    for (size_t r = 0; r < rs->nrow; r++)
        if (null_at(&v, r, C_KIND) || null_at(&v, r, C_METRIC))
            return 1;
    size_t r0 = 0;
    while (r0 < rs->nrow) {
        size_t r1 = r0 + 1;
        while (r1 < rs->nrow && same_text(text_at(&v, r1, C_METRIC), text_at(&v, r0, C_METRIC)) &&
               same_text(text_at(&v, r1, C_UNIT), text_at(&v, r0, C_UNIT)))
            r1++;
        if (r0)
            fputc('\n', out);
        if (print_table(&v, r0, r1, s, adjust, level, width, out))
            return -1;
        r0 = r1;
    }
    return ferror(out) ? -1 : 0;
}
