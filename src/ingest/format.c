#include "ingest/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Units a primary metric may have (time and throughput) first, then the
 * other built-in units (index >= format_primary_unit_count). */
const char *const format_units[] = {
    "ns/op", "us/op", "ms/op", "s/op", "ns", "us", "ms", "s",
    "ops/ns", "ops/us", "ops/ms", "ops/s", "ops/min", "sec/op", "B/s", "MB/s",
    "B/op", "allocs/op", "bytes", "1",
};
const int format_unit_count = (int)(sizeof format_units / sizeof format_units[0]);
const int format_primary_unit_count = 16;
const char format_unit_list[] =
    "ns/op, us/op, ms/op, s/op, ns, us, ms, s, ops/ns, ops/us, ops/ms, ops/s, ops/min, sec/op, B/s, MB/s";

int format_unit_index(const char *unit)
{
    for (int i = 0; i < format_unit_count; i++)
        if (strcmp(format_units[i], unit) == 0)
            return i;
    return -1;
}

/* Reads exactly n digits at *p into *out. */
static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return 0;
        v = v * 10 + (c - '0');
    }
    *p += n;
    *out = v;
    return 1;
}

int rfc3339_valid(const char *s)
{
    int y, mo, d, h, mi, se, oh, om;
    if (!digits(&s, 4, &y) || *s++ != '-' || !digits(&s, 2, &mo) || *s++ != '-' || !digits(&s, 2, &d))
        return 0;
    if (*s != 'T' && *s != 't')
        return 0;
    s++;
    if (!digits(&s, 2, &h) || *s++ != ':' || !digits(&s, 2, &mi) || *s++ != ':' || !digits(&s, 2, &se))
        return 0;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'Z' || *s == 'z') {
        s++;
    } else if (*s == '+' || *s == '-') {
        s++;
        if (!digits(&s, 2, &oh) || *s++ != ':' || !digits(&s, 2, &om) || oh > 23 || om > 59)
            return 0;
    } else {
        return 0;
    }
    if (*s)
        return 0;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
        return 0;
    if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return 0;
    return h <= 23 && mi <= 59 && se <= 60;
}

void json_describe(const json_t *v, char *buf, size_t n)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: snprintf(buf, n, "an object"); break;
    case JSON_ARRAY: snprintf(buf, n, json_array_size(v) ? "an array" : "an empty array"); break;
    case JSON_INTEGER: snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: {
        char d[32];
        fmt_double(d, json_real_value(v));
        snprintf(buf, n, "%s", d);
        break;
    }
    case JSON_TRUE: snprintf(buf, n, "true"); break;
    case JSON_FALSE: snprintf(buf, n, "false"); break;
    case JSON_NULL: snprintf(buf, n, "null"); break;
    case JSON_STRING: {
        struct strbuf sb = {0};
        const char *s = json_string_value(v);
        size_t len = json_string_length(v), cut = len;
        if (cut > 40) {
            cut = 40;
            while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) /* not inside a UTF-8 sequence */
                cut--;
        }
        json_t *part = json_stringn(s, cut);
        if (part && json_canonical(part, &sb) == 0)
            snprintf(buf, n, "%s%s", sb.buf, cut < len ? "..." : "");
        else
            snprintf(buf, n, "a string");
        json_decref(part);
        sb_free(&sb);
        break;
    }
    }
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int json_canonical(const json_t *v, struct strbuf *sb)
{
    switch (json_typeof(v)) {
    case JSON_NULL: return sb_puts(sb, "null");
    case JSON_TRUE: return sb_puts(sb, "true");
    case JSON_FALSE: return sb_puts(sb, "false");
    case JSON_INTEGER: return sb_printf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    case JSON_REAL: {
        char d[32];
        fmt_double(d, json_real_value(v)); /* shortest round trip, "1.0" kept a real */
        return sb_puts(sb, d);
    }
    case JSON_STRING: return sb_json_string(sb, json_string_value(v), json_string_length(v));
    case JSON_ARRAY: {
        if (sb_putc(sb, '['))
            return -1;
        for (size_t i = 0; i < json_array_size(v); i++)
            if ((i && sb_putc(sb, ',')) || json_canonical(json_array_get(v, i), sb))
                return -1;
        return sb_putc(sb, ']');
    }
    case JSON_OBJECT: {
        /* A record's params and attributes have a few keys: those are
         * sorted on the stack, by insertion. */
        size_t n = json_object_size(v), k = 0;
        const char *few[16];
        json_t *fewv[16];
        const char **keys = n <= 16 ? few : malloc(n * sizeof *keys);
        if (!keys)
            return -1;
        const char *key;
        json_t *val;
        json_object_foreach((json_t *)v, key, val) {
            if (n > 16) {
                keys[k++] = key;
                continue;
            }
            size_t j = k++;
            for (; j > 0 && strcmp(keys[j - 1], key) > 0; j--) {
                keys[j] = keys[j - 1];
                fewv[j] = fewv[j - 1];
            }
            keys[j] = key;
            fewv[j] = val;
        }
        if (n > 16)
            qsort(keys, n, sizeof *keys, cmp_keys);
        int rc = sb_putc(sb, '{');
        for (size_t i = 0; rc == 0 && i < n; i++) {
            rc = (i && sb_putc(sb, ',')) || sb_json_string(sb, keys[i], strlen(keys[i])) || sb_putc(sb, ':') ||
                 json_canonical(n <= 16 ? fewv[i] : json_object_get(v, keys[i]), sb);
        }
        if (keys != few)
            free(keys);
        return rc ? -1 : sb_putc(sb, '}');
    }
    }
    return -1;
}
