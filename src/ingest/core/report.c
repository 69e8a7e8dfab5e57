#include "ingest/core/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

int ingest_report_fail(struct ingest_report *r, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    free(r->err);
    r->err = field && *field ? bd_strdupf("%s: %s", field, what) : what;
    if (r->err != what)
        free(what);
    free(r->err_member);
    r->err_member = r->member ? strdup(r->member) : NULL;
    r->err_line = r->line;
    return -1;
}

int ingest_report_oom(struct ingest_report *r)
{
    return ingest_report_fail(r, NULL, "out of memory");
}

void ingest_report_blame_file(struct ingest_report *r, const char *display)
{
    free(r->err_file);
    r->err_file = display ? strdup(display) : NULL;
}

void ingest_report_before_message(struct ingest_report *r)
{
    if (r->before_message)
        r->before_message(r->hook_arg);
}

/* "FILE[MEMBER]:LINE" as far as each is known. */
static void place(char *out, size_t n, const char *file, const char *member, uint64_t line)
{
    int k = snprintf(out, n, "%s", file ? file : "?");
    if (member && k >= 0 && (size_t)k < n)
        k += snprintf(out + k, n - (size_t)k, "[%s]", member);
    if (line && k >= 0 && (size_t)k < n)
        snprintf(out + k, n - (size_t)k, ":%llu", (unsigned long long)line);
}

void ingest_report_warn(struct ingest_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    char where[1024];
    place(where, sizeof where, r->file, r->member, r->line);
    ingest_report_before_message(r);
    bd_warning("%s: %s", where, what);
    free(what);
}

void ingest_report_notice(struct ingest_report *r, const char *fmt, ...)
{
    if (r->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    ingest_report_before_message(r);
    bd_notice("%s", what);
    free(what);
}

void ingest_report_print_error(struct ingest_report *r)
{
    char where[1024];
    if (r->err_file)
        snprintf(where, sizeof where, "%s", r->err_file);
    else
        place(where, sizeof where, r->file, r->err_member, r->err_line);
    ingest_report_before_message(r);
    bd_error("%s: %s", where, r->err ? r->err : "failed");
}

void ingest_report_clear_error(struct ingest_report *r)
{
    free(r->err);
    free(r->err_file);
    free(r->err_member);
    r->err = r->err_file = r->err_member = NULL;
    r->err_line = 0;
}

void ingest_report_reset(struct ingest_report *r)
{
    free(r->err);
    free(r->err_file);
    free(r->err_member);
    r->err = r->err_file = r->err_member = NULL;
    r->err_line = 0;
    r->member = NULL;
    r->line = 0;
}

void ingest_report_free(struct ingest_report *r)
{
    ingest_report_reset(r);
}
