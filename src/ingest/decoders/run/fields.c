/* The checks every benchdb-run/1 field goes through, and their messages:
 * "record.field: expected ..., got ..." (the value described as written). */
#include "ingest/decoders/run/fields.h"

#include <stdio.h>
#include <string.h>

#include "ingest/core/jsontext.h"

static void field_name(char *buf, size_t n, const char *rec, const char *key)
{
    snprintf(buf, n, "%s%s%s", rec, *rec ? "." : "", key);
}

/* Fetches rec.key: returns 1 when present (and not null, for an optional
 * field), 0 when absent, -1 (error set) when required and absent. */
int run_get_field(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required,
                     const char *expected, json_t **out)
{
    json_t *v = json_object_get(obj, key);
    *out = v;
    if (v && !(json_is_null(v) && !required))
        return 1;
    *out = NULL;
    if (!required)
        return 0;
    char field[64];
    field_name(field, sizeof field, rec, key);
    if (v)
        return ingest_report_fail(d->rep, field, "expected %s, got null", expected);
    return ingest_report_fail(d->rep, field, "required field missing (expected %s)", expected);
}

int run_wrong(struct run_decoder *d, const char *rec, const char *key, const char *expected, const json_t *v)
{
    char field[64], got[96];
    field_name(field, sizeof field, rec, key);
    json_describe(v, got, sizeof got);
    return ingest_report_fail(d->rep, field, "expected %s, got %s", expected, got);
}

int run_get_name(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required, const char **out)
{
    json_t *v;
    *out = NULL;
    int rc = run_get_field(d, obj, rec, key, required, "a non-empty string", &v);
    if (rc <= 0)
        return rc;
    if (!json_is_string(v) || json_string_length(v) == 0 || strlen(json_string_value(v)) != json_string_length(v))
        return run_wrong(d, rec, key, "a non-empty string", v);
    *out = json_string_value(v);
    return 0;
}

int run_get_int(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required, long long min,
                long long *out, int *present)
{
    json_t *v = json_object_get(obj, key);
    *present = 0;
    if (json_is_integer(v) && json_integer_value(v) >= min) { /* the common case, without formatting */
        *out = json_integer_value(v);
        *present = 1;
        return 0;
    }
    char expected[48];
    snprintf(expected, sizeof expected, "an integer >= %lld", min);
    int rc = run_get_field(d, obj, rec, key, required, expected, &v);
    if (rc <= 0)
        return rc;
    return run_wrong(d, rec, key, expected, v);
}

