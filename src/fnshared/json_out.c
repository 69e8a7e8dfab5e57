/* The JSON text of the functions' results: objects in a fixed buffer,
 * numbers in shortest round-trip form (numfmt_shortest), null where a value
 * does not exist. The same bytes on every engine; PostgreSQL reads them
 * into jsonb. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fnshared/fnshared.h"
#include "fnshared/numfmt.h"

void fn_overflow_note(struct fn_overflow *o, const char *key, double x)
{
    if (isinf(x) && !o->key) {
        o->key = key;
        o->neg = x < 0;
    }
}

void fn_overflow_message(char *msg, size_t size, const char *name, const struct fn_overflow *o)
{
    snprintf(msg, size, "%s(): %s is %cInf (beyond the largest double)", name, o->key, o->neg ? '-' : '+');
}

struct fn_overflow fn_ci_overflow(const double v[3])
{
    static const char *const keys[3] = {"estimate", "lo", "hi"};
    struct fn_overflow o = {0};
    for (int i = 0; i < 3; i++)
        fn_overflow_note(&o, keys[i], v[i]);
    return o;
}

void fn_json_begin(struct fn_json *j)
{
    j->buf[0] = '{';
    j->len = 1;
    j->over = (struct fn_overflow){0};
}

/* Appends n bytes, or as many as fit (the buffer is sized so that they
 * always do: 12 members of at most about 40 bytes). */
static void json_put(struct fn_json *j, const char *text, size_t n)
{
    size_t room = sizeof j->buf - 1 - j->len;
    if (n > room)
        n = room;
    memcpy(j->buf + j->len, text, n);
    j->len += n;
    j->buf[j->len] = 0;
}

static void json_key(struct fn_json *j, const char *key)
{
    size_t n = strlen(key);
    if (n + 4 > sizeof j->buf - 1 - j->len)
        return; /* cannot happen: the buffer holds every result whole */
    char *o = j->buf + j->len;
    if (j->len > 1)
        *o++ = ',';
    *o++ = '"';
    memcpy(o, key, n);
    o += n;
    *o++ = '"';
    *o++ = ':';
    *o = 0;
    j->len = (size_t)(o - j->buf);
}

static void json_raw(struct fn_json *j, const char *text)
{
    json_put(j, text, strlen(text));
}

void fn_json_num(struct fn_json *j, const char *key, double x)
{
    json_key(j, key);
    if (!isfinite(x)) {
        fn_overflow_note(&j->over, key, x);
        json_raw(j, "null");
        return;
    }
    if (sizeof j->buf - j->len > 40) {
        /* Straight into the buffer (40 bytes hold any double's text). */
        numfmt_shortest(j->buf + j->len, 40, x);
        j->len += strlen(j->buf + j->len);
        return;
    }
    char num[40];
    numfmt_shortest(num, sizeof num, x);
    json_raw(j, num);
}

void fn_json_int(struct fn_json *j, const char *key, int64_t x)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)x);
    json_key(j, key);
    json_raw(j, num);
}

void fn_json_bool(struct fn_json *j, const char *key, int b)
{
    json_key(j, key);
    json_raw(j, b ? "true" : "false");
}

void fn_json_end(struct fn_json *j) { json_raw(j, "}"); }

/* ---- the results ---- */

void fn_json_t_ci(struct fn_json *j, const struct t_interval *t)
{
    fn_json_begin(j);
    fn_json_num(j, "estimate", t->estimate);
    fn_json_num(j, "lo", t->lo);
    fn_json_num(j, "hi", t->hi);
    fn_json_num(j, "se", t->se);
    fn_json_num(j, "df", t->df);
    fn_json_int(j, "n", t->n1);
    fn_json_num(j, "level", t->level);
    fn_json_end(j);
}

static const char *const members[FN_CI_MEMBERS] = {"estimate", "lo", "hi", "se", "df", "t",
                                                   "p", "n1", "n2", "mean1", "mean2", "level"};

unsigned fn_ci_members(const char *text)
{
    unsigned mask = 0;
    if (!text || strlen(text) >= FN_CI_LIST_MAX)
        return 0;
    for (const char *p = text;;) {
        size_t n = strcspn(p, ",");
        unsigned bit = 0;
        for (int i = 0; i < FN_CI_MEMBERS; i++)
            if (strlen(members[i]) == n && memcmp(members[i], p, n) == 0)
                bit = 1u << i;
        if (!bit || (mask & bit))
            return 0;
        mask |= bit;
        if (p[n] == 0)
            return mask;
        p += n + 1;
    }
}

void fn_json_two_sample(struct fn_json *j, const struct t_interval *t, unsigned mask)
{
    const double values[FN_CI_MEMBERS] = {t->estimate, t->lo, t->hi, t->se, t->df, t->t,
                                          t->p, 0, 0, t->mean1, t->mean2, t->level};
    if (!mask)
        mask = FN_CI_ALL;
    fn_json_begin(j);
    for (int i = 0; i < FN_CI_MEMBERS; i++) {
        if (!(mask & 1u << i))
            continue;
        if (i == 7 || i == 8)
            fn_json_int(j, members[i], i == 7 ? t->n1 : t->n2);
        else
            fn_json_num(j, members[i], values[i]);
    }
    fn_json_end(j);
}

void fn_json_mann_whitney(struct fn_json *j, const struct mw_result *r)
{
    fn_json_begin(j);
    fn_json_num(j, "u", r->u);
    fn_json_num(j, "p", r->p);
    fn_json_int(j, "n1", r->n1);
    fn_json_int(j, "n2", r->n2);
    fn_json_bool(j, "exact", r->exact);
    fn_json_end(j);
}

void fn_json_hodges_lehmann(struct fn_json *j, const struct hl_result *r)
{
    fn_json_begin(j);
    fn_json_num(j, "estimate", r->estimate);
    fn_json_num(j, "lo", r->lo);
    fn_json_num(j, "hi", r->hi);
    fn_json_num(j, "level", r->level);
    fn_json_num(j, "confidence", r->confidence);
    fn_json_int(j, "n1", r->n1);
    fn_json_int(j, "n2", r->n2);
    fn_json_bool(j, "exact", r->exact);
    fn_json_end(j);
}

void fn_json_median_ci(struct fn_json *j, const struct median_ci *r)
{
    fn_json_begin(j);
    fn_json_num(j, "center", r->center);
    fn_json_num(j, "lo", r->lo);
    fn_json_num(j, "hi", r->hi);
    fn_json_int(j, "lo_order", r->lo_order);
    fn_json_int(j, "hi_order", r->hi_order);
    fn_json_num(j, "confidence", r->confidence);
    fn_json_num(j, "level", r->level);
    fn_json_int(j, "n", r->n);
    fn_json_end(j);
}

void fn_json_lookback(struct fn_json *j, const struct lookback *lb)
{
    fn_json_begin(j);
    fn_json_int(j, "n", (int64_t)lb->n);
    fn_json_int(j, "outliers", (int64_t)lb->outliers);
    fn_json_num(j, "mean", lb->mean);
    fn_json_num(j, "stddev", lb->stddev);
    fn_json_end(j);
}

/* ---- change_points' array ---- */

/* An object of change_points is at most 9 keys (118 bytes with their
 * quotes, colons and commas), 8 numbers of at most 24 bytes, an index of
 * at most 20 digits and its braces and comma: under 400 bytes. */
enum { CP_OBJECT_MAX = 400 };

size_t fn_json_changepoints_size(size_t m) { return m * CP_OBJECT_MAX + 3; }

/* ,"key":number (or null) at o; returns the new end. */
static char *put_num(char *o, const char *key, double x, struct fn_overflow *over)
{
    o += sprintf(o, ",\"%s\":", key);
    fn_overflow_note(over, key, x);
    if (!isfinite(x))
        return o + sprintf(o, "null");
    numfmt_shortest(o, 40, x);
    return o + strlen(o);
}

size_t fn_json_changepoints(char *out, const struct fn_seq_row *rows, const struct changepoint *cp, size_t m,
                            struct fn_overflow *over)
{
    char *o = out;
    *over = (struct fn_overflow){0};
    *o++ = '[';
    for (size_t i = 0; i < m; i++) {
        const struct changepoint *c = &cp[i];
        const struct fn_seq_row *r = &rows[c->index];
        o += sprintf(o, i ? ",{\"seq\":" : "{\"seq\":");
        if (r->seq_is_int) {
            o += sprintf(o, "%lld", (long long)r->seq_int);
        } else {
            numfmt_shortest(o, 40, r->seq_real);
            o += strlen(o);
        }
        o += sprintf(o, ",\"index\":%lld", (long long)c->index);
        o = put_num(o, "mean_before", c->mean_before, over);
        o = put_num(o, "mean_after", c->mean_after, over);
        o = put_num(o, "stddev_before", c->stddev_before, over);
        o = put_num(o, "stddev_after", c->stddev_after, over);
        o = put_num(o, "pvalue", c->pvalue, over);
        o = put_num(o, "magnitude", changepoint_magnitude(c), over);
        o = put_num(o, "forward_change_percent", changepoint_forward_change(c) * 100, over);
        *o++ = '}';
    }
    *o++ = ']';
    *o = 0;
    return (size_t)(o - out);
}
