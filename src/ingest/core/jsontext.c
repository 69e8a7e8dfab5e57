#include "ingest/core/jsontext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"

void json_describe(const json_t *v, char *buf, size_t n)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: snprintf(buf, n, "an object"); break;
    case JSON_ARRAY: snprintf(buf, n, json_array_size(v) ? "an array" : "an empty array"); break;
    case JSON_INTEGER: snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: {
        char d[32];
        numfmt_real(d, json_real_value(v));
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

/* An integer's decimal text, as printf's %lld writes it, without printf:
 * a harness detail may hold one per value (nanobench's iterations). */
static int put_integer(struct strbuf *sb, json_int_t x)
{
    char d[24];
    size_t k = sizeof d;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    do {
        d[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        d[--k] = '-';
    return sb_append(sb, d + k, sizeof d - k);
}

int json_canonical(const json_t *v, struct strbuf *sb)
{
    switch (json_typeof(v)) {
    case JSON_NULL: return sb_puts(sb, "null");
    case JSON_TRUE: return sb_puts(sb, "true");
    case JSON_FALSE: return sb_puts(sb, "false");
    case JSON_INTEGER: return put_integer(sb, json_integer_value(v));
    case JSON_REAL: {
        char d[32];
        size_t n = numfmt_real(d, json_real_value(v)); /* shortest round trip, "1.0" kept a real */
        return sb_append(sb, d, n);
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

int json_depth(const json_t *v)
{
    int deepest = 0;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            int d = json_depth(json_array_get(v, i));
            if (d > deepest)
                deepest = d;
        }
        return deepest + 1;
    }
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            int d = json_depth(x);
            if (d > deepest)
                deepest = d;
        }
        return deepest + 1;
    }
    return 0;
}
