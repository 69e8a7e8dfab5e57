/* Printing a result: CSV (RFC 4180) and JSON keep every value exact; the
 * formats for a person are in table.c. And the notes beside a result. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output/human.h"
#include "util/diag.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static int print_csv(const struct rowset *rs, FILE *out)
{
    if (!rs->ncol)
        return 0;
    for (int c = 0; c < rs->ncol; c++) {
        if (c)
            fputc(',', out);
        csv_field(out, rs->names[c]);
    }
    fputs("\r\n", out);
    for (size_t r = 0; r < rs->nrow; r++) {
        for (int c = 0; c < rs->ncol; c++) {
            if (c)
                fputc(',', out);
            char *t = value_text(rowset_cell(rs, r, c));
            if (!t)
                return -1;
            csv_field(out, t);
            free(t);
        }
        fputs("\r\n", out);
    }
    return 0;
}

static int print_json(const struct rowset *rs, FILE *out)
{
    struct strbuf sb = {0};
    int rc = rowset_json(rs, &sb, 1);
    if (!rc) {
        fputs(sb.buf, out);
        fputc('\n', out);
    }
    sb_free(&sb);
    return rc;
}

int rowset_print(const struct rowset *rs, const struct out_opts *o, FILE *out)
{
    int rc;
    switch (o->format) {
    case OUT_CSV: rc = print_csv(rs, out); break;
    case OUT_JSON: rc = print_json(rs, out); break;
    default: rc = rowset_print_human(rs, o, out); break;
    }
    return rc || ferror(out) ? -1 : 0;
}

/* ---- notes and fields ---- */

static void *grow(void *p, int n, size_t size)
{
    void *q = xreallocarray(p, (size_t)n + 1, size);
    if (!q) {
        fputs("error: out of memory\n", stderr);
        abort();
    }
    return q;
}

void out_note(struct out_notes *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->notes = grow(r->notes, r->nnotes, sizeof *r->notes);
    r->notes[r->nnotes++] = bd_vstrdupf(fmt, ap);
    va_end(ap);
}

void out_field_json(struct out_notes *r, const char *key, const char *json)
{
    r->fields = grow(r->fields, r->nfields, sizeof *r->fields);
    r->fields[r->nfields].key = bd_strdupf("%s", key);
    r->fields[r->nfields].json = bd_strdupf("%s", json ? json : "null");
    r->nfields++;
}

void out_field_text(struct out_notes *r, const char *key, const char *text)
{
    if (!text) {
        out_field_json(r, key, NULL);
        return;
    }
    struct strbuf sb = {0};
    json_put_string(&sb, text, strlen(text));
    out_field_json(r, key, xsb_text(&sb));
    sb_free(&sb);
}

void out_field_int(struct out_notes *r, const char *key, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    out_field_json(r, key, buf);
}

void out_field_bool(struct out_notes *r, const char *key, int v) { out_field_json(r, key, v ? "true" : "false"); }

void out_lead(struct out_notes *r, const char *markdown)
{
    free(r->lead);
    r->lead = bd_strdupf("%s", markdown);
}

void out_answer(struct out_notes *r, const struct out_opts *o, const char *text)
{
    if (o->format == OUT_TABLE) {
        r->notes = grow(r->notes, r->nnotes, sizeof *r->notes);
        memmove(r->notes + 1, r->notes, (size_t)r->nnotes * sizeof *r->notes);
        r->notes[0] = bd_strdupf("%s", text);
        r->nnotes++;
        r->leading++;
    } else if (o->format == OUT_MARKDOWN) {
        struct strbuf sb = {0};
        sb_puts(&sb, "**");
        sb_put_markdown(&sb, text, strlen(text), MD_TEXT);
        sb_puts(&sb, "**");
        out_lead(r, xsb_text(&sb));
        sb_free(&sb);
    } else if (o->format == OUT_JSON && o->envelope) {
        out_field_text(r, "headline", text); /* a program's: the same words, as data */
    }
}

void out_notes_free(struct out_notes *r)
{
    for (int i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    for (int i = 0; i < r->nfields; i++) {
        free(r->fields[i].key);
        free(r->fields[i].json);
    }
    free(r->notes);
    free(r->fields);
    free(r->lead);
    memset(r, 0, sizeof *r);
}

static int print_envelope(const struct out_notes *r, const struct rowset *rows, FILE *out)
{
    struct strbuf sb = {0};
    int rc = sb_putc(&sb, '{');
    const char *sep = "\n";
    if (rows) {
        rc |= sb_printf(&sb, "%s\"rows\": ", sep);
        rc |= rowset_json(rows, &sb, 1);
        sep = ",\n";
    }
    for (int i = 0; i < r->nfields; i++) {
        rc |= sb_puts(&sb, sep);
        rc |= json_put_string(&sb, r->fields[i].key, strlen(r->fields[i].key));
        rc |= sb_printf(&sb, ": %s", r->fields[i].json);
        sep = ",\n";
    }
    rc |= sb_printf(&sb, "%s\"notes\": [", sep);
    for (int i = 0; i < r->nnotes; i++) {
        rc |= sb_puts(&sb, i ? ", " : "");
        rc |= json_put_string(&sb, r->notes[i], strlen(r->notes[i]));
    }
    rc |= sb_puts(&sb, "]\n}\n");
    if (!rc)
        fputs(sb.buf, out);
    sb_free(&sb);
    return rc ? -1 : 0;
}

void out_notes_print_lines(const struct out_notes *r, int from, int to, FILE *out, FILE *err)
{
    fflush(out);
    for (int i = from < 0 ? 0 : from; i < to && i < r->nnotes; i++) {
        char *t = text_escape_controls(r->notes[i]);
        fprintf(err, "%s\n", t);
        free(t);
    }
}

int out_notes_print(const struct out_notes *r, const struct rowset *rows, const struct out_opts *o, FILE *out, FILE *err)
{
    if (o->format == OUT_JSON && o->envelope)
        return print_envelope(r, rows, out) || ferror(out) ? -1 : 0;
    int before = r->notes_first ? r->nnotes : r->leading;
    out_notes_print_lines(r, 0, before, out, err);
    if (r->lead && rows && o->format == OUT_MARKDOWN)
        fprintf(out, "%s\n\n", r->lead);
    if (rows && rowset_print(rows, o, out))
        return -1;
    out_notes_print_lines(r, before, r->nnotes, out, err);
    return ferror(out) ? -1 : 0;
}
