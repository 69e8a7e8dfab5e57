/* Values as a page shows them (see display.h). */
#include "report/display.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/evaldata.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int display_time_parse(const char *s, double *out)
{
    int Y, M, D, h = 0, m = 0, n = 0;
    double sec = 0;
    if (sscanf(s, "%4d-%2d-%2d%n", &Y, &M, &D, &n) != 3 || n != 10)
        return 0;
    const char *p = s + 10;
    int off = 0;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        int k = 0;
        if (sscanf(p + 1, "%2d:%2d:%lf%n", &h, &m, &sec, &k) != 3)
            return 0;
        p += 1 + k;
        if (*p == 'Z' || *p == 'z') {
            p++;
        } else if (*p == '+' || *p == '-') {
            int oh, om, k2 = 0;
            if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &k2) != 2 || k2 != 5)
                return 0;
            off = (*p == '-' ? -1 : 1) * (oh * 3600 + om * 60);
            p += 6;
        }
    }
    if (*p || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec < 0 || sec >= 61)
        return 0;
    struct tm tm = {.tm_year = Y - 1900, .tm_mon = M - 1, .tm_mday = D, .tm_hour = h, .tm_min = m};
    *out = (double)timegm(&tm) + sec - off;
    return 1;
}

void display_time(char *buf, double t, int date_only)
{
    time_t tt = (time_t)floor(t);
    struct tm tm;
    gmtime_r(&tt, &tm);
    if (!strftime(buf, 24, date_only ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S", &tm))
        buf[0] = 0;
}

int display_is_sha(const char *s)
{
    size_t n = strspn(s, "0123456789abcdefABCDEF");
    return !s[n] && (n == 40 || n == 64);
}

/* A parameter's value as text: a string as it is, else its JSON. */
static char *member_text(const json_t *v)
{
    return json_is_string(v) ? xstrdup(json_string_value(v)) : evaldata_show(v, 17);
}

/* The members of a JSON object's text joined as KEY=VALUE with sep (and
 * lead before the first); NULL when s is not an object. */
static char *object_joined(const char *s, const char *lead, const char *sep)
{
    if (*s != '{')
        return NULL;
    json_t *o = json_loads(s, JSON_DECODE_ANY, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    struct strbuf sb = {0};
    const char *k;
    json_t *m;
    int first = 1;
    json_object_foreach(o, k, m) {
        char *t = member_text(m);
        sb_printf(&sb, "%s%s=%s", first ? lead : sep, k, t ? t : "");
        free(t);
        first = 0;
    }
    json_decref(o);
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

char *display_params_path(const char *json_text)
{
    json_t *o = json_text && *json_text == '{' ? json_loads(json_text, JSON_DECODE_ANY, NULL) : NULL;
    if (!json_is_object(o)) {
        json_decref(o);
        return xstrdup("");
    }
    const json_t *procs = json_object_get(o, "procs"), *pkg = json_object_get(o, "pkg");
    if (!json_is_integer(procs))
        procs = NULL;
    if (!json_is_string(pkg))
        pkg = NULL;
    struct strbuf sb = {0};
    const char *k;
    json_t *m;
    json_object_foreach(o, k, m) {
        if (m == procs || m == pkg)
            continue;
        char *t = member_text(m);
        sb_printf(&sb, "/%s=%s", k, t ? t : "");
        free(t);
    }
    if (procs) /* BenchmarkX/n=10-8 */
        sb_printf(&sb, "-%" JSON_INTEGER_FORMAT, json_integer_value(procs));
    if (pkg)
        sb_printf(&sb, " pkg=%s", json_string_value(pkg));
    json_decref(o);
    if (sb.failed) {
        sb_free(&sb);
        return xstrdup("");
    }
    return sb.len ? xsb_detach(&sb) : xstrdup("");
}

static char *display_text(const char *s, char **full)
{
    double t;
    char buf[32];
    char *shown = NULL;
    if (display_is_sha(s)) {
        shown = xstrndup(s, 12);
    } else if (strlen(s) > 10 && display_time_parse(s, &t)) {
        display_time(buf, t, 0);
        shown = xstrdup(buf);
    } else if (*s == '{') {
        shown = object_joined(s, "", ", ");
    }
    if (!shown)
        return xstrdup(s);
    if (full && strcmp(shown, s) != 0)
        *full = xstrdup(s);
    return shown;
}

char *display_value(const json_t *v, int digits, char **full)
{
    if (full)
        *full = NULL;
    if (json_is_string(v))
        return display_text(json_string_value(v), full);
    return evaldata_show(v, digits);
}
