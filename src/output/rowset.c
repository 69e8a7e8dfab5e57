/* Rowsets: the rows of a result, collected from a statement or built in C. */
#include "output/output.h"
#include "util/natural.h"

#include <stdlib.h>
#include <string.h>

#include "store/db.h"

#include "util/diag.h"
#include "util/text.h"
#include "util/xalloc.h"

static int set_names(struct rowset *rs, int ncol, const char *(*name)(const void *, int), const void *src)
{
    rs->ncol = ncol;
    rs->names = xcalloc((size_t)ncol + 1, sizeof *rs->names);
    if (!rs->names)
        return SQLITE_NOMEM;
    for (int c = 0; c < ncol; c++) {
        const char *n = name(src, c);
        rs->names[c] = xstrdup(n ? n : "");
        if (!rs->names[c])
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static const char *stmt_name(const void *st, int c) { return sqlite3_column_name((sqlite3_stmt *)st, c); }
static const char *list_name(const void *v, int c) { return ((const char *const *)v)[c]; }

/* What holding v costs, as struct rowset_limits counts it. A zeroblob
 * counts its whole length: printing or recording it makes the bytes. */
static size_t value_bytes(sqlite3_value *v)
{
    int t = sqlite3_value_type(v);
    return ROWSET_VALUE_BYTES + (t == SQLITE_TEXT || t == SQLITE_BLOB ? (size_t)sqlite3_value_bytes(v) : 0);
}

/* A statement of either kind, as rowset_collect reads it. */
struct row_source {
    void *st;
    int (*count)(void *st);
    const char *(*name)(const void *st, int c);
    int (*step)(void *st);
    sqlite3_value *(*value)(void *st, int c);
};

static int lite_count(void *st) { return sqlite3_column_count(st); }
static int lite_step(void *st) { return sqlite3_step(st); }
static sqlite3_value *lite_value(void *st, int c) { return sqlite3_column_value(st, c); }
static int db_count(void *st) { return db_column_count(st); }
static const char *db_name(const void *st, int c) { return db_column_name((struct db_stmt *)st, c); }
static int db_step_(void *st) { return db_step(st); }
static sqlite3_value *db_value(void *st, int c) { return db_column_value(st, c); }

static int collect(struct rowset *rs, const struct row_source *src, const struct rowset_limits *lim)
{
    if (!rs->names && set_names(rs, src->count(src->st), src->name, src->st) != SQLITE_OK)
        return SQLITE_NOMEM;
    size_t max_rows = lim ? lim->max_rows : 0, max_bytes = lim ? lim->max_bytes : 0;
    int rc;
    while ((rc = src->step(src->st)) == SQLITE_ROW) {
        if (max_rows && rs->nrow >= max_rows)
            return ROWSET_OVER_ROWS;
        if (rs->nrow == rs->cap) {
            size_t cap = rs->cap ? rs->cap * 2 : 16;
            sqlite3_value **p = xreallocarray(rs->cells, cap * (size_t)(rs->ncol ? rs->ncol : 1), sizeof *p);
            if (!p)
                return SQLITE_NOMEM;
            rs->cells = p;
            rs->cap = cap;
        }
        size_t bytes = 0;
        for (int c = 0; c < rs->ncol; c++) {
            sqlite3_value *v = sqlite3_value_dup(src->value(src->st, c));
            if (!v) {
                for (int k = 0; k < c; k++)
                    sqlite3_value_free(rs->cells[rs->nrow * (size_t)rs->ncol + (size_t)k]);
                return SQLITE_NOMEM;
            }
            rs->cells[rs->nrow * (size_t)rs->ncol + (size_t)c] = v;
            bytes += value_bytes(v);
        }
        rs->nrow++;
        rs->bytes += bytes;
        if (max_bytes && rs->bytes > max_bytes)
            return ROWSET_OVER_BYTES;
    }
    return rc;
}

int rowset_collect_limited(struct rowset *rs, sqlite3_stmt *st, const struct rowset_limits *lim)
{
    struct row_source src = {st, lite_count, stmt_name, lite_step, lite_value};
    return collect(rs, &src, lim);
}

int rowset_collect(struct rowset *rs, sqlite3_stmt *st) { return rowset_collect_limited(rs, st, NULL); }

int rowset_collect_db_limited(struct rowset *rs, struct db_stmt *st, const struct rowset_limits *lim)
{
    struct row_source src = {st, db_count, db_name, db_step_, db_value};
    return collect(rs, &src, lim);
}

int rowset_collect_db(struct rowset *rs, struct db_stmt *st) { return rowset_collect_db_limited(rs, st, NULL); }

char *rowset_over_text(int rc, const struct rowset_limits *lim)
{
    if (rc == ROWSET_OVER_ROWS)
        return bd_strdupf("the result passed %zu rows", lim->max_rows);
    char size[32];
    size_text(size, lim->max_bytes);
    return bd_strdupf("the result took more than %s of memory", size);
}

void rowset_free(struct rowset *rs)
{
    for (size_t i = 0; i < rs->nrow * (size_t)rs->ncol; i++)
        sqlite3_value_free(rs->cells[i]);
    free(rs->cells);
    if (rs->names)
        for (int c = 0; c < rs->ncol; c++)
            free(rs->names[c]);
    free(rs->names);
    memset(rs, 0, sizeof *rs);
}

/* The rows being sorted (rowset_sort_natural): qsort takes no context. */
static const struct rowset *sorting;
static const int *sort_cols;
static int sort_ncols;

static int by_columns(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    for (int k = 0; k < sort_ncols; k++) {
        sqlite3_value *va = rowset_cell(sorting, a, sort_cols[k]), *vb = rowset_cell(sorting, b, sort_cols[k]);
        int ta = sqlite3_value_type(va), tb = sqlite3_value_type(vb);
        int c;
        if (ta == SQLITE_NULL || tb == SQLITE_NULL)
            c = (ta == SQLITE_NULL) - (tb == SQLITE_NULL); /* NULL last */
        else if ((ta == SQLITE_INTEGER || ta == SQLITE_FLOAT) && (tb == SQLITE_INTEGER || tb == SQLITE_FLOAT)) {
            double da = sqlite3_value_double(va), db = sqlite3_value_double(vb);
            c = (da > db) - (da < db);
        } else
            c = natural_compare((const char *)sqlite3_value_text(va), (const char *)sqlite3_value_text(vb));
        if (c)
            return c;
    }
    return (a > b) - (a < b);
}

int rowset_sort_natural(struct rowset *rs, const int *cols, int ncols)
{
    if (rs->nrow < 2)
        return 0;
    size_t *order = xmalloc(rs->nrow * sizeof *order);
    sqlite3_value **cells = xmalloc(rs->nrow * (size_t)rs->ncol * sizeof *cells);
    if (!order || !cells) {
        free(order);
        free(cells);
        return -1;
    }
    for (size_t r = 0; r < rs->nrow; r++)
        order[r] = r;
    sorting = rs;
    sort_cols = cols;
    sort_ncols = ncols;
    qsort(order, rs->nrow, sizeof *order, by_columns);
    sorting = NULL;
    size_t ncol = (size_t)rs->ncol;
    for (size_t r = 0; r < rs->nrow; r++)
        memcpy(cells + r * ncol, rs->cells + order[r] * ncol, ncol * sizeof *cells);
    memcpy(rs->cells, cells, rs->nrow * ncol * sizeof *cells);
    free(cells);
    free(order);
    return 0;
}

void rowset_keep(struct rowset *rs, const unsigned char *keep)
{
    size_t ncol = (size_t)rs->ncol, kept = 0;
    for (size_t r = 0; r < rs->nrow; r++) {
        sqlite3_value **row = rs->cells + r * ncol;
        if (!keep[r]) {
            for (size_t c = 0; c < ncol; c++)
                sqlite3_value_free(row[c]);
            continue;
        }
        if (kept != r)
            memmove(rs->cells + kept * ncol, row, ncol * sizeof *row);
        kept++;
    }
    rs->nrow = kept;
}

int rowset_column(const struct rowset *rs, const char *name)
{
    for (int c = 0; c < rs->ncol; c++)
        if (strcmp(rs->names[c], name) == 0)
            return c;
    return -1;
}

int rowset_builder_start(struct rowset_builder *b, struct rowset *rs, int ncol, const char *const *names)
{
    memset(b, 0, sizeof *b);
    b->rs = rs;
    b->rc = set_names(rs, ncol, list_name, names);
    if (b->rc == SQLITE_OK)
        b->rc = sqlite3_open_v2(":memory:", &b->mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL);
    if (b->rc != SQLITE_OK)
        return -1;
    struct strbuf sql = {0};
    int rc = sb_puts(&sql, "SELECT ");
    for (int c = 0; c < ncol; c++)
        rc |= sb_printf(&sql, "%s?%d", c ? ", " : "", c + 1);
    if (!ncol)
        rc |= sb_puts(&sql, "NULL WHERE 0");
    b->rc = rc ? SQLITE_NOMEM : sqlite3_prepare_v2(b->mem, sql.buf, -1, &b->st, NULL);
    sb_free(&sql);
    return b->rc == SQLITE_OK ? 0 : -1;
}

void rb_text(struct rowset_builder *b, int col, const char *s)
{
    if (b->rc == SQLITE_OK)
        b->rc = s ? sqlite3_bind_text(b->st, col + 1, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(b->st, col + 1);
}

void rb_int(struct rowset_builder *b, int col, long long v)
{
    if (b->rc == SQLITE_OK)
        b->rc = sqlite3_bind_int64(b->st, col + 1, v);
}

void rb_double(struct rowset_builder *b, int col, double v)
{
    if (b->rc == SQLITE_OK)
        b->rc = sqlite3_bind_double(b->st, col + 1, v);
}

void rb_row(struct rowset_builder *b)
{
    if (b->rc != SQLITE_OK)
        return;
    int rc = rowset_collect(b->rs, b->st);
    b->rc = rc == SQLITE_DONE ? sqlite3_reset(b->st) : rc;
    if (b->rc == SQLITE_OK)
        b->rc = sqlite3_clear_bindings(b->st);
}

int rowset_builder_finish(struct rowset_builder *b, char **err)
{
    int rc = b->rc;
    if (rc != SQLITE_OK)
        bd_fail(err, "cannot tabulate the result: %s", sqlite3_errstr(rc));
    sqlite3_finalize(b->st);
    sqlite3_close(b->mem);
    memset(b, 0, sizeof *b);
    return rc == SQLITE_OK ? 0 : -1;
}
