#ifndef BENCHDB_OUTPUT_H
#define BENCHDB_OUTPUT_H
#include <sqlite3.h>
#include <stdio.h>

#include "fnshared/numfmt.h"
#include "util/strbuf.h"

/* ---- the output options every command printing rows takes (format.c) ---- */

enum out_format { OUT_TABLE, OUT_VERTICAL, OUT_CSV, OUT_JSON, OUT_MARKDOWN };
#define OUT_FORMAT_NAMES "table, vertical, csv, json, markdown"

/* Parses a format's name (also "md" for markdown); -1 for anything else. */
int out_format_parse(const char *s, enum out_format *f);

#define OUT_DIGITS_DEFAULT 4
#define OUT_DIGITS_MAX NUMFMT_DIGITS_MAX

struct out_opts {
    enum out_format format;
    int digits;   /* significant digits of reals in table, vertical and Markdown (1-17) */
    int wide;     /* table: keep the table however wide it is */
    int envelope; /* json: one object with the rows and the notes */
    int max_width;/* table: wider than this prints as vertical; 0: no limit */
    /* Columns shown in table, vertical and Markdown output (NULL: all);
     * CSV and JSON always hold every column. */
    char *const *show;
    int nshow;
};
/* Table, 4 digits, nothing else set. */
void out_opts_init(struct out_opts *o);
/* Where a table must fit: $COLUMNS when it is a positive number, else the
 * terminal's width when fd is a terminal, else 0 (no limit: a pipe gets
 * the table as it is). */
int out_terminal_width(int fd);

/* ---- rowsets (rowset.c) ---- */

/* The rows of one result, kept so that a table can be aligned and a result
 * recorded as well as printed. Cells are copies (sqlite3_value_dup). */
struct rowset {
    int ncol;
    char **names;
    size_t nrow;
    size_t cap;
    sqlite3_value **cells; /* row-major, nrow * ncol */
    size_t bytes;          /* its size as struct rowset_limits counts it */
};

/* Steps st to the end, collecting every row into rs (which must be zeroed).
 * Returns the last sqlite3_step result code: SQLITE_DONE on success;
 * SQLITE_NOMEM also when rs could not grow (sqlite3_errmsg does not say
 * so then: go by the code). */
int rowset_collect(struct rowset *rs, sqlite3_stmt *st);

/* How much of a result a command may hold (docs/queries.md, "Limits"): a
 * result is held whole in memory (a table is aligned, an evaluation
 * recorded), so an endless or huge one must stop with a clear message
 * before memory runs out. Size counts what holding the result costs: each
 * value's text or blob bytes plus ROWSET_VALUE_BYTES. 0: no limit. */
struct rowset_limits {
    size_t max_rows;
    size_t max_bytes;
};
#define ROWSET_MAX_ROWS_DEFAULT ((size_t)1000000)
#define ROWSET_MAX_BYTES_DEFAULT ((size_t)256 << 20)
#define ROWSET_VALUE_BYTES 80
/* rowset_collect within limits (NULL: none). Returns as rowset_collect,
 * or ROWSET_OVER_ROWS / ROWSET_OVER_BYTES when the result passed a limit
 * (rs then holds the rows up to it; the statement was not run to its end). */
#define ROWSET_OVER_ROWS (-1)
#define ROWSET_OVER_BYTES (-2)
int rowset_collect_limited(struct rowset *rs, sqlite3_stmt *st, const struct rowset_limits *lim);
/* The same from a statement of the connection layer (store/db.h), on
 * either engine. */
struct db_stmt;
int rowset_collect_db(struct rowset *rs, struct db_stmt *st);
int rowset_collect_db_limited(struct rowset *rs, struct db_stmt *st, const struct rowset_limits *lim);
/* What passed a limit, for a message: rc ROWSET_OVER_ROWS gives "the
 * result passed 1000000 rows", ROWSET_OVER_BYTES "the result took more
 * than 256 MiB of memory". malloc'd. */
char *rowset_over_text(int rc, const struct rowset_limits *lim);
void rowset_free(struct rowset *rs);
static inline sqlite3_value *rowset_cell(const struct rowset *rs, size_t row, int col)
{
    return rs->cells[row * (size_t)rs->ncol + (size_t)col];
}
/* Sorts the rows by columns cols[0..ncols), each in natural order
 * (util/natural.h: null-2 before null-10), numbers by value, NULL last;
 * stable. 0, or -1 when memory ran out (rs unchanged). */
int rowset_sort_natural(struct rowset *rs, const int *cols, int ncols);
/* Keeps the rows r with keep[r] set, in order; frees the others. */
void rowset_keep(struct rowset *rs, const unsigned char *keep);
/* The index of the column named name, or -1. */
int rowset_column(const struct rowset *rs, const char *name);

/* Rows made in C (a listing, a diff), typed as SQLite types them: the
 * builder binds each row's values to "SELECT ?1, ..., ?N" on a private
 * in-memory database and collects the result. Errors stick: the first
 * one is kept and every later call does nothing, so a caller checks the
 * result of rowset_builder_finish only. */
struct rowset_builder {
    struct rowset *rs;
    sqlite3 *mem;
    sqlite3_stmt *st;
    int rc; /* SQLITE_OK until something failed */
};
/* Starts rs (zeroed) with ncol columns named names. */
int rowset_builder_start(struct rowset_builder *b, struct rowset *rs, int ncol, const char *const *names);
void rb_text(struct rowset_builder *b, int col, const char *s); /* NULL binds NULL */
void rb_int(struct rowset_builder *b, int col, long long v);
void rb_double(struct rowset_builder *b, int col, double v);
/* Adds the row bound so far; unbound columns are NULL. */
void rb_row(struct rowset_builder *b);
/* Frees the builder; returns 0, or -1 with *err set if anything failed
 * (rs then holds the rows added before the failure). */
int rowset_builder_finish(struct rowset_builder *b, char **err);

/* ---- values (value.c) ---- */

/* The exact text of a value, as CSV shows it: integers in full, reals in
 * the shortest form that reads back as the same double (3.0 stays 3.0),
 * NULL as "", blobs as X'hex'. malloc'd. */
char *value_text(sqlite3_value *v);
/* The text a person reads in a table, vertical or Markdown output: a real
 * rounded for display to `digits` significant digits in the shortest form
 * (0.8916666666666667 -> 0.8917, 1234.5678 -> 1235: the integer part is
 * never cut), except a whole real below 2^53, which shows in full as
 * value_text does. Integers are never rounded; other values as value_text.
 * Control characters are not escaped here. malloc'd. */
char *value_display(sqlite3_value *v, int digits);
/* Whether a column holds percentages (its name ends in _percent:
 * regressions' change_percent, versions' step_percent), shown with their
 * sign and % (+7.842%, -4.1%, 0%) in a table, vertical and Markdown, and
 * in a page's tables; CSV and JSON keep the number. */
int out_percent_column(const char *name);

/* Appends one value as JSON: numbers as JSON numbers in full precision
 * (NaN and infinities as null), NULL as null, blobs as hex strings, text as
 * a string; with nest_json, a text that is a JSON object or array (a
 * benchmark's params, recorded parameters) is written as that JSON. */
int json_put_value(struct strbuf *sb, sqlite3_value *v, int nest_json);
/* Appends s as a JSON string literal. */
int json_put_string(struct strbuf *sb, const char *s, size_t n);
/* Whether every column name and text value of rs is text JSON holds for
 * every reader: valid UTF-8 without a NUL byte. 0 when so; else 1 with
 * the first offender: *row (SIZE_MAX for a column's name), *col and the
 * byte offset *at of its first bad byte (*byte that byte). */
int rowset_text_invalid(const struct rowset *rs, size_t *row, int *col, size_t *at, unsigned char *byte);

/* Appends rs as a JSON array of objects, column name to value. */
int rowset_json(const struct rowset *rs, struct strbuf *sb, int nest_json);

/* ---- printing (print.c, table.c) ---- */

/* Prints rs to out in the format of o. Returns 0, or -1 on a write error. */
int rowset_print(const struct rowset *rs, const struct out_opts *o, FILE *out);

/* What a command says beside its rows: one-line notes for a person (a
 * verdict, the registration, the evaluation's id) and named fields for a
 * program. Without --envelope the rows go to stdout and the notes to
 * stderr (escaped), one line each, in every format; with --format json
 * --envelope, stdout gets one object: {"rows": [...], FIELDS...,
 * "notes": [...]} and stderr nothing. */
struct out_field {
    char *key;
    char *json; /* the field's value as JSON text */
};
struct out_notes {
    int notes_first; /* print the notes before the rows (a summary) */
    int leading;     /* else the first `leading` notes before the rows (the answer first), the rest after */
    char *lead;      /* Markdown output: a line on stdout before the rows (the answer first) */
    char **notes;
    int nnotes;
    struct out_field *fields;
    int nfields;
};
void out_note(struct out_notes *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_field_text(struct out_notes *r, const char *key, const char *text); /* NULL: null */
void out_field_int(struct out_notes *r, const char *key, long long v);
void out_field_bool(struct out_notes *r, const char *key, int v);
/* The Markdown line that leads the rows in Markdown output (already
 * Markdown: escape what data it holds, util/markdown.h). */
void out_lead(struct out_notes *r, const char *markdown);
/* What the rows hold, in words, before them: in a terminal's table the
 * first note on stderr (one of the leading), in Markdown the lead line in
 * bold (text escaped); --envelope as its "headline" member; CSV and bare
 * JSON get nothing (a program's output). */
void out_answer(struct out_notes *r, const struct out_opts *o, const char *text);
void out_field_json(struct out_notes *r, const char *key, const char *json); /* NULL: null */
/* Notes [from, to) on err, escaped, after what is on out so far (a
 * command that prints its own rows puts its leading notes first). */
void out_notes_print_lines(const struct out_notes *r, int from, int to, FILE *out, FILE *err);
/* Prints rows (may be NULL: no rows member, nothing on stdout) and notes. */
int out_notes_print(const struct out_notes *r, const struct rowset *rows, const struct out_opts *o, FILE *out, FILE *err);
void out_notes_free(struct out_notes *r);

#endif
