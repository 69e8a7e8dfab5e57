/* bare_insert: the practical limit of an ingest, for `make bench`.
 *
 *     bare_insert [--one-row] [--cpu] SRC.db            (then one DST path per line on stdin)
 *     bare_insert [--one-row] [--cpu] SRC.db DST.db
 *
 * Reads every row that `benchdb ingest` wrote into SRC (archive,
 * archive_member, archive_chunk, plan, host, variant, benchmark, run, gate, event, series,
 * sample: the same columns and values, ids, the derived series.n and
 * series.total, and the archive's stored bytes) into memory, untimed. Then,
 * for each DST (an empty store made by `benchdb init`), it opens DST with
 * the settings benchdb's ingest uses (foreign keys on, WAL, synchronous =
 * NORMAL, cache_size = -8192) and benchdb's SQL functions registered (the
 * triggers keeping run_cell_data call them), inserts all those rows with one prepared
 * statement per table (with --one-row: the floor, each executed
 * once per row; without: values as benchdb inserts them, below),
 * committing once per archive as benchdb does (one
 * transaction for everything was slower at 100x: the 8 MB cache spills),
 * and prints the seconds from open to close (--cpu: its CPU seconds) on
 * one line of stdout. Nothing is parsed, validated, hashed or looked up:
 * what is left is SQLite's own work, the floor an ingest can approach. The server form lets the driver
 * alternate this program with `benchdb ingest` without re-reading SRC. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlfn/benchstats.h"

/* The open flags of benchdb's store_open for writing (src/store/store.c). */
#ifndef BARE_OPEN_FLAGS
#define BARE_OPEN_FLAGS (SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX)
#endif

struct cell {
    int type, len;
    union {
        sqlite3_int64 i;
        double d;
        void *p;
    } u;
};

struct table {
    const char *name;
    char *insert_sql;
    int ncol;
    size_t nrow;
    struct cell *cells; /* nrow * ncol */
};

/* sample is by far the largest table: stored compactly. */
struct sample_row {
    sqlite3_int64 series_id;
    int warmup, iteration;
    double value;
};

/* Parents before children (foreign keys), sample after series, the
 * archive's bytes last. */
static const char *const table_names[] = {"archive", "plan", "host", "variant", "benchmark", "run", "gate",
                                          "event", "series", "archive_chunk", "archive_member"};
#define NTABLES (sizeof table_names / sizeof *table_names)

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "bare_insert: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bare_insert: out of memory\n");
        exit(1);
    }
    return p;
}

static void load_table(sqlite3 *db, struct table *t)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY rowid", t->name);
    if (strcmp(t->name, "archive_chunk") == 0)
        snprintf(sql, sizeof sql, "SELECT * FROM archive_chunk ORDER BY archive_id, seq");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(db, sql);
    t->ncol = sqlite3_column_count(st);
    size_t cap = 1024;
    t->cells = xmalloc(cap * (size_t)t->ncol * sizeof *t->cells);
    /* INSERT INTO t(c1, c2...) VALUES (?, ?...) */
    size_t qlen = 64 + strlen(t->name);
    for (int c = 0; c < t->ncol; c++)
        qlen += strlen(sqlite3_column_name(st, c)) + 8;
    t->insert_sql = xmalloc(qlen);
    char *q = t->insert_sql;
    q += sprintf(q, "INSERT INTO %s(", t->name);
    for (int c = 0; c < t->ncol; c++)
        q += sprintf(q, "%s%s", c ? ", " : "", sqlite3_column_name(st, c));
    q += sprintf(q, ") VALUES (");
    for (int c = 0; c < t->ncol; c++)
        q += sprintf(q, "%s?", c ? ", " : "");
    sprintf(q, ")");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (t->nrow == cap) {
            cap *= 2;
            struct cell *n = realloc(t->cells, cap * (size_t)t->ncol * sizeof *t->cells);
            if (!n)
                die(NULL, "out of memory");
            t->cells = n;
        }
        struct cell *row = t->cells + t->nrow * (size_t)t->ncol;
        for (int c = 0; c < t->ncol; c++) {
            struct cell *x = row + c;
            x->type = sqlite3_column_type(st, c);
            x->len = 0;
            switch (x->type) {
            case SQLITE_INTEGER:
                x->u.i = sqlite3_column_int64(st, c);
                break;
            case SQLITE_FLOAT:
                x->u.d = sqlite3_column_double(st, c);
                break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                const void *p = x->type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, c)
                                                       : sqlite3_column_blob(st, c);
                x->len = sqlite3_column_bytes(st, c);
                x->u.p = xmalloc((size_t)x->len + 1);
                memcpy(x->u.p, p, (size_t)x->len);
                ((char *)x->u.p)[x->len] = 0;
                break;
            }
            default:
                x->u.i = 0;
            }
        }
        t->nrow++;
    }
    if (rc != SQLITE_DONE)
        die(db, sql);
    sqlite3_finalize(st);
}

static struct sample_row *load_samples(sqlite3 *db, size_t *n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sample", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW)
        die(db, "count samples");
    size_t cap = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    struct sample_row *s = xmalloc(cap * sizeof *s);
    /* In the order benchdb inserts them: series by series, the measured
     * values before the warmups (the primary key's order). */
    if (sqlite3_prepare_v2(db, "SELECT series_id, warmup, iteration, value FROM sample", -1, &st, NULL) != SQLITE_OK)
        die(db, "read samples");
    size_t k = 0;
    while (k < cap && sqlite3_step(st) == SQLITE_ROW) {
        s[k].series_id = sqlite3_column_int64(st, 0);
        s[k].warmup = sqlite3_column_int(st, 1);
        s[k].iteration = sqlite3_column_int(st, 2);
        s[k].value = sqlite3_column_double(st, 3);
        k++;
    }
    sqlite3_finalize(st);
    *n = k;
    return s;
}

static void exec(sqlite3 *db, const char *sql)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        die(db, sql);
}

/* --cpu: the process's CPU time instead of the wall clock's (SQLite runs
 * no thread of its own here), which a shared machine's load stretches less. */
static int cpu_clock;

static double now(void)
{
    struct timespec ts;
    clock_gettime(cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Inserts rows [from, to) of t. */
static void insert_rows(sqlite3_stmt *st, const struct table *t, size_t from, size_t to)
{
    for (size_t r = from; r < to; r++) {
        const struct cell *row = t->cells + r * (size_t)t->ncol;
        for (int c = 0; c < t->ncol; c++) {
            const struct cell *x = row + c;
            switch (x->type) {
            case SQLITE_INTEGER:
                sqlite3_bind_int64(st, c + 1, x->u.i);
                break;
            case SQLITE_FLOAT:
                sqlite3_bind_double(st, c + 1, x->u.d);
                break;
            case SQLITE_TEXT:
                sqlite3_bind_text(st, c + 1, x->u.p, x->len, SQLITE_STATIC);
                break;
            case SQLITE_BLOB:
                sqlite3_bind_blob(st, c + 1, x->u.p, x->len, SQLITE_STATIC);
                break;
            default:
                sqlite3_bind_null(st, c + 1);
            }
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            die(sqlite3_db_handle(st), t->insert_sql);
        sqlite3_reset(st);
    }
}

/* The archive a row belongs to, by the row's first column (archive id,
 * run id or series id) and a map from ids of the parent table. */
static sqlite3_int64 col0(const struct table *t, size_t r)
{
    return t->cells[r * (size_t)t->ncol].u.i;
}

enum { T_ARCHIVE, T_PLAN, T_HOST, T_VARIANT, T_BENCHMARK, T_RUN, T_GATE, T_EVENT, T_SERIES, T_CHUNK, T_MEMBER };

/* Maps an id (1..max) to a value; ids are dense in a store benchdb filled. */
struct idmap {
    sqlite3_int64 *v;
    sqlite3_int64 max;
};

static void map_put(struct idmap *m, sqlite3_int64 id, sqlite3_int64 v)
{
    if (id > m->max) {
        sqlite3_int64 nmax = id * 2;
        sqlite3_int64 *n = realloc(m->v, (size_t)(nmax + 1) * sizeof *n);
        if (!n)
            die(NULL, "out of memory");
        memset(n + m->max + 1, 0, (size_t)(nmax - m->max) * sizeof *n);
        m->v = n;
        m->max = nmax;
    }
    m->v[id] = v;
}

static sqlite3_int64 map_get(const struct idmap *m, sqlite3_int64 id)
{
    return id >= 0 && id <= m->max ? m->v[id] : 0;
}

/* How the floor inserts values: the floor, one prepared statement
 * per table executed once per row (--one-row); or as benchdb does (the
 * default, a stricter floor): a series' values and warmups together, by
 * statements of 64, 32, ..., 1 rows, each row binding its warmup,
 * iteration and value (src/ingest/loader.h, SAMPLE_SHAPES). */
#define NSHAPES 7
static int one_row;

static char *sample_sql(size_t rows)
{
    char *sql = xmalloc(96 + rows * 40), *q = sql;
    q += sprintf(q, "INSERT INTO sample(series_id, warmup, iteration, value) VALUES ");
    for (size_t j = 0; j < rows; j++)
        q += sprintf(q, "%s(?1, ?%zu, ?%zu, ?%zu)", j ? ", " : "", 3 * j + 2, 3 * j + 3, 3 * j + 4);
    return sql;
}

/* One transaction per archive, as `benchdb ingest` commits: the names
 * (plan, host, variant, benchmark) with the first archive, then for each
 * archive its row, runs, gates, events, series, values and stored bytes.
 * Ingest assigns ids in archive order, so each archive's rows are a
 * contiguous range of every table read in id order. */
static double insert_all(const char *path, struct table *tables, const struct sample_row *s, size_t ns,
                         const struct idmap *run_archive, const struct idmap *series_archive)
{
    double t0 = now();
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | BARE_OPEN_FLAGS, NULL) != SQLITE_OK ||
        benchstats_register(db) != SQLITE_OK)
        die(db, path);
    exec(db, "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
             "PRAGMA cache_size = -8192");
    sqlite3_stmt *st[NTABLES];
    for (size_t i = 0; i < NTABLES; i++)
        if (sqlite3_prepare_v3(db, tables[i].insert_sql, -1, SQLITE_PREPARE_PERSISTENT, &st[i], NULL) != SQLITE_OK)
            die(db, tables[i].insert_sql);
    sqlite3_stmt *multi[NSHAPES];
    for (int k = 0; k < NSHAPES; k++) {
        char *sql = sample_sql((size_t)1 << k);
        if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &multi[k], NULL) != SQLITE_OK)
            die(db, sql);
        free(sql);
    }
    size_t pos[NTABLES] = {0}, spos = 0;
    for (size_t a = 0; a < tables[T_ARCHIVE].nrow; a++) {
        sqlite3_int64 aid = col0(&tables[T_ARCHIVE], a);
        exec(db, "BEGIN IMMEDIATE");
        if (a == 0)
            for (int t = T_PLAN; t <= T_BENCHMARK; t++)
                insert_rows(st[t], &tables[t], 0, tables[t].nrow);
        insert_rows(st[T_ARCHIVE], &tables[T_ARCHIVE], a, a + 1);
        /* archive_member (the files of a harness bundle): archive_id is its second column */
        const struct table *mem = &tables[T_MEMBER];
        size_t me = pos[T_MEMBER];
        while (me < mem->nrow && mem->cells[me * (size_t)mem->ncol + 1].u.i == aid)
            me++;
        insert_rows(st[T_MEMBER], mem, pos[T_MEMBER], me);
        pos[T_MEMBER] = me;
        /* run: archive_id is its last column */
        const struct table *run = &tables[T_RUN];
        size_t e = pos[T_RUN];
        while (e < run->nrow && run->cells[e * (size_t)run->ncol + run->ncol - 1].u.i == aid)
            e++;
        insert_rows(st[T_RUN], run, pos[T_RUN], e);
        pos[T_RUN] = e;
        for (int t = T_GATE; t <= T_SERIES; t++) { /* id, run_id, ... */
            const struct table *x = &tables[t];
            e = pos[t];
            while (e < x->nrow && map_get(run_archive, x->cells[e * (size_t)x->ncol + 1].u.i) == aid)
                e++;
            insert_rows(st[t], x, pos[t], e);
            pos[t] = e;
        }
        while (spos < ns && map_get(series_archive, s[spos].series_id) == aid) {
            /* The values and warmups of one series. */
            size_t e2 = spos + 1;
            while (e2 < ns && s[e2].series_id == s[spos].series_id)
                e2++;
            size_t at = spos;
            for (int k = one_row ? 0 : NSHAPES - 1; k >= 0; k--) {
                size_t rows = (size_t)1 << k;
                sqlite3_stmt *m = multi[k];
                for (; e2 - at >= rows; at += rows) {
                    sqlite3_bind_int64(m, 1, s[at].series_id);
                    for (size_t j = 0; j < rows; j++) {
                        sqlite3_bind_int(m, 3 * (int)j + 2, s[at + j].warmup);
                        sqlite3_bind_int(m, 3 * (int)j + 3, s[at + j].iteration);
                        sqlite3_bind_double(m, 3 * (int)j + 4, s[at + j].value);
                    }
                    if (sqlite3_step(m) != SQLITE_DONE)
                        die(db, "insert sample");
                    sqlite3_reset(m);
                }
            }
            spos = e2;
        }
        e = pos[T_CHUNK];
        while (e < tables[T_CHUNK].nrow && col0(&tables[T_CHUNK], e) == aid)
            e++;
        insert_rows(st[T_CHUNK], &tables[T_CHUNK], pos[T_CHUNK], e);
        pos[T_CHUNK] = e;
        exec(db, "COMMIT");
    }
    for (size_t i = 0; i < NTABLES; i++)
        sqlite3_finalize(st[i]);
    for (int k = 0; k < NSHAPES; k++)
        sqlite3_finalize(multi[k]);
    if (sqlite3_close(db) != SQLITE_OK)
        die(db, "close");
    return now() - t0;
}

int main(int argc, char **argv)
{
    while (argc > 1 && (strcmp(argv[1], "--one-row") == 0 || strcmp(argv[1], "--cpu") == 0)) {
        if (strcmp(argv[1], "--one-row") == 0)
            one_row = 1;
        else
            cpu_clock = 1;
        argv++;
        argc--;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: bare_insert [--one-row] [--cpu] SRC.db [DST.db]  (without DST: one DST path per "
                        "line on stdin)\n");
        return 2;
    }
    /* The stricter floor also runs SQLite as benchdb does (src/main.c). */
    if (!one_row)
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3 *src;
    if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(src, argv[1]);
    struct table tables[NTABLES];
    memset(tables, 0, sizeof tables);
    for (size_t i = 0; i < NTABLES; i++) {
        tables[i].name = table_names[i];
        load_table(src, &tables[i]);
    }
    size_t ns;
    struct sample_row *samples = load_samples(src, &ns);
    sqlite3_close(src);
    struct idmap run_archive = {0}, series_archive = {0};
    const struct table *run = &tables[T_RUN];
    for (size_t r = 0; r < run->nrow; r++)
        map_put(&run_archive, col0(run, r), run->cells[r * (size_t)run->ncol + run->ncol - 1].u.i);
    const struct table *ser = &tables[T_SERIES];
    for (size_t r = 0; r < ser->nrow; r++)
        map_put(&series_archive, col0(ser, r), map_get(&run_archive, ser->cells[r * (size_t)ser->ncol + 1].u.i));

    if (argc == 3) {
        printf("%.6f\n", insert_all(argv[2], tables, samples, ns, &run_archive, &series_archive));
    } else {
        char line[4096];
        printf("ready %zu\n", ns);
        fflush(stdout);
        while (fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\n")] = 0;
            if (!*line)
                continue;
            printf("%.6f\n", insert_all(line, tables, samples, ns, &run_archive, &series_archive));
            fflush(stdout);
        }
    }
    for (size_t i = 0; i < NTABLES; i++) {
        for (size_t k = 0; k < tables[i].nrow * (size_t)tables[i].ncol; k++)
            if (tables[i].cells[k].type == SQLITE_TEXT || tables[i].cells[k].type == SQLITE_BLOB)
                free(tables[i].cells[k].u.p);
        free(tables[i].cells);
        free(tables[i].insert_sql);
    }
    free(samples);
    free(run_archive.v);
    free(series_archive.v);
    return ferror(stdout) ? 1 : 0;
}
