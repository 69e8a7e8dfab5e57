/* libFuzzer target: one archive through the whole ingest path (reader,
 * zstd, line splitting, JSON parsing, record validation, inserts, commit
 * or rollback) into an in-memory store. The input is the archive's bytes.
 * Whatever the input, ingest must not crash, leak or corrupt the store:
 * after each archive the store passes PRAGMA integrity_check and a failed
 * archive left no row behind. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int64_t count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* A fresh store per input, copied from a template made once by store_open
 * (migrating a new store for every input would dominate the time). */
static unsigned char *template_db;
static sqlite3_int64 template_size;

static sqlite3 *fresh_store(void)
{
    char *err = NULL;
    sqlite3 *db;
    if (!template_db) {
        if (store_open(":memory:", STORE_CREATE, &db, &err))
            abort();
        template_db = sqlite3_serialize(db, "main", &template_size, 0);
        store_close(db);
        if (!template_db)
            abort();
    }
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)template_size);
    if (!copy || sqlite3_open(":memory:", &db) != SQLITE_OK)
        abort();
    memcpy(copy, template_db, (size_t)template_size);
    if (sqlite3_deserialize(db, "main", copy, template_size, template_size,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
        abort();
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK)
        abort();
    return db;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("archive", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    sqlite3 *db = fresh_store();
    char *err = NULL;
    /* Small limits: the fuzzer explores the limit checks instead of
     * spending its time decompressing bombs. */
    struct ingest_options opt = {.max_line_bytes = 4096, .max_bytes = 1 << 20, .quiet = 1};
    struct ingester *g = ingester_open(db, &opt, NULL, &err);
    if (!g)
        abort();
    enum ingest_result r = ingester_archive(g, path);
    ingester_close(g);
    if (count(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") != 0)
        abort();
    int64_t archives = count(db, "SELECT count(*) FROM archive");
    int64_t runs = count(db, "SELECT count(*) FROM run");
    if (r == INGEST_FAILED && (archives != 0 || runs != 0))
        abort(); /* a refused archive left rows behind */
    if (r == INGEST_LOADED && (archives != 1 || runs < 1))
        abort();
    store_close(db);
    close(fd);
    return 0;
}
