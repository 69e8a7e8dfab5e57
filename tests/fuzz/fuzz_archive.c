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
#include "fuzz_store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("archive", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    sqlite3 *db = fuzz_fresh_store();
    char *err = NULL;
    /* Small limits: the fuzzer explores the limit checks instead of
     * spending its time decompressing bombs. */
    struct ingest_options opt = {.max_line_bytes = 4096, .max_bytes = 1 << 20, .notices = INGEST_NOTICES_QUIET};
    struct db *via = db_from_sqlite(db, 0);
    struct ingester *g = via ? ingester_open(via, &opt, NULL, &err) : NULL;
    if (!g)
        abort();
    enum ingest_result r = ingester_archive(g, path);
    ingester_close(g);
    db_close(via);
    if (fuzz_count(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") != 0)
        abort();
    int64_t archives = fuzz_count(db, "SELECT count(*) FROM archive");
    int64_t runs = fuzz_count(db, "SELECT count(*) FROM run");
    if (r == INGEST_FAILED && (archives != 0 || runs != 0))
        abort(); /* a refused archive left rows behind */
    if (r == INGEST_LOADED && (archives != 1 || runs < 1))
        abort();
    store_close(db);
    close(fd);
    return 0;
}
