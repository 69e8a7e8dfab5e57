#ifndef BENCHDB_OUTPUT_H
#define BENCHDB_OUTPUT_H
#include <sqlite3.h>
#include <stdio.h>

#include "util/strbuf.h"

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON, OUT_MARKDOWN };

/* Parses "table", "csv", "json" or "markdown"; returns -1 for anything else. */
int out_format_parse(const char *s, enum out_format *f);
#define OUT_FORMAT_NAMES "table, csv, json, markdown"

/* The rows of one result, kept so that a table can be aligned and a result
 * recorded as well as printed. Cells are copies (sqlite3_value_dup). */
struct rowset {
    int ncol;
    char **names;
    size_t nrow;
    size_t cap;
    sqlite3_value **cells; /* row-major, nrow * ncol */
};

/* Steps st to the end, collecting every row into rs (which must be zeroed).
 * Returns the last sqlite3_step result code: SQLITE_DONE on success. */
int rowset_collect(struct rowset *rs, sqlite3_stmt *st);
void rowset_free(struct rowset *rs);
static inline sqlite3_value *rowset_cell(const struct rowset *rs, size_t row, int col)
{
    return rs->cells[row * (size_t)rs->ncol + (size_t)col];
}

/* Prints rs to out in format f. Returns 0, or -1 on a write error. */
int rowset_print(const struct rowset *rs, enum out_format f, FILE *out);
/* Appends rs as a JSON array of objects (column name to value, numbers as
 * JSON numbers, NULL as null, blobs as hex strings). */
int rowset_json(const struct rowset *rs, struct strbuf *sb);
/* Appends one value as JSON. */
int json_put_value(struct strbuf *sb, sqlite3_value *v);
/* Appends s as a JSON string literal. */
int json_put_string(struct strbuf *sb, const char *s, size_t n);
/* The text a value shows as in table, CSV and Markdown output: malloc'd. */
char *value_text(sqlite3_value *v);

#endif
