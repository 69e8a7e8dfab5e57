/* libFuzzer target: one bare harness file (docs/formats.md: every format
 * of the adapters' table) through 'ingest --plan P --run R --host H
 * [--format F] FILE' into an in-memory store. Byte 0 of the input picks
 * the format (byte 0 modulo the number of formats + 1, in the table's
 * order), or none (the last: the file's own, detected); the rest is the
 * file.
 * Whatever the input, ingest must not crash, leak or corrupt the store: it
 * passes PRAGMA integrity_check, and a refused file left no row behind. */
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
    if (size < 1)
        return 0;
    size_t n_formats = 0;
    while (ingest_harness_at(n_formats))
        n_formats++;
    /* the last choice: no format given, the file's own detected */
    const char *format = ingest_harness_at(data[0] % (n_formats + 1));
    data++;
    size--;
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
    struct ingest_run run = {.plan = "p", .run = "r", .host = "h", .variant = "default", .block = 1, .harness_format = format};
    struct ingest_file f = {path, "input"};
    enum ingest_result r = ingester_files(g, &run, &f, 1, path);
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
