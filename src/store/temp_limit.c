/* A limit on the disk SQLite's temporary files take (docs/reliability.md,
 * promise 9): an ORDER BY of 3,000 rows of 1 MB each wrote 3 GB of sorter
 * files in 15 s, enough to fill a shared disk before the time limit.
 *
 * Each temporary file benchdb's VFS opens (subjournal.c) is the default
 * VFS's file wrapped by this one, which adds the bytes a write puts past
 * the file's high-water mark to a count of the process (SQLite may sort
 * on worker threads: the count is atomic), and gives them back when the
 * file is truncated or closed (SQLite deletes its temporary files on
 * close). The count is the disk the temporary files hold at once; while a
 * limit is set a write that would pass it fails with SQLITE_FULL, so the
 * statement fails ("database or disk is full") and the command says which
 * limit stopped it (temp_limit_refused). Only writes are counted: a
 * sorter's mapped reads (xFetch) read what was written. */
#include "store/temp_limit.h"

#include <stdatomic.h>
#include <string.h>

struct tl_file {
    sqlite3_file base;
    sqlite3_int64 high; /* the file's highest byte written, as counted */
    sqlite3_file *real; /* the default VFS's file, in the same allocation after this */
};

static _Atomic sqlite3_int64 used, limit;
static atomic_int refused;

#define REAL(f) (((struct tl_file *)(f))->real)

/* Counts the bytes from the file's high-water mark to end; SQLITE_FULL
 * when they would pass the limit. */
static int grow(struct tl_file *p, sqlite3_int64 end)
{
    if (end <= p->high)
        return SQLITE_OK;
    sqlite3_int64 more = end - p->high, max = atomic_load(&limit);
    sqlite3_int64 now = atomic_fetch_add(&used, more) + more;
    if (max > 0 && now > max) {
        atomic_fetch_sub(&used, more);
        atomic_store(&refused, 1);
        return SQLITE_FULL;
    }
    p->high = end;
    return SQLITE_OK;
}

static void shrink(struct tl_file *p, sqlite3_int64 size)
{
    if (size < 0)
        size = 0;
    if (size < p->high) {
        atomic_fetch_sub(&used, p->high - size);
        p->high = size;
    }
}

static int tl_close(sqlite3_file *f)
{
    struct tl_file *p = (struct tl_file *)f;
    shrink(p, 0);
    int rc = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
    p->real->pMethods = NULL;
    return rc;
}

static int tl_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
    int rc = grow((struct tl_file *)f, off + amt);
    return rc != SQLITE_OK ? rc : REAL(f)->pMethods->xWrite(REAL(f), buf, amt, off);
}

static int tl_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    int rc = REAL(f)->pMethods->xTruncate(REAL(f), size);
    if (rc == SQLITE_OK)
        shrink((struct tl_file *)f, size);
    return rc;
}

static int tl_file_control(sqlite3_file *f, int op, void *arg)
{
    /* A size hint (a sorter about to map its file) allocates the bytes. */
    if (op == SQLITE_FCNTL_SIZE_HINT) {
        int rc = grow((struct tl_file *)f, *(sqlite3_int64 *)arg);
        if (rc != SQLITE_OK)
            return rc;
    }
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

/* ---- the rest as the default VFS's file does it ---- */

static int tl_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
    return REAL(f)->pMethods->xRead(REAL(f), buf, amt, off);
}

static int tl_sync(sqlite3_file *f, int flags)
{
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int tl_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int tl_lock(sqlite3_file *f, int level)
{
    return REAL(f)->pMethods->xLock(REAL(f), level);
}

static int tl_unlock(sqlite3_file *f, int level)
{
    return REAL(f)->pMethods->xUnlock(REAL(f), level);
}

static int tl_check_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int tl_sector_size(sqlite3_file *f)
{
    return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int tl_device(sqlite3_file *f)
{
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int tl_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **pp)
{
    const sqlite3_io_methods *m = REAL(f)->pMethods;
    if (m->iVersion < 3 || !m->xFetch) {
        *pp = NULL; /* no mapping: SQLite reads instead */
        return SQLITE_OK;
    }
    return m->xFetch(REAL(f), off, amt, pp);
}

static int tl_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    const sqlite3_io_methods *m = REAL(f)->pMethods;
    return m->iVersion < 3 || !m->xUnfetch ? SQLITE_OK : m->xUnfetch(REAL(f), off, p);
}

/* Version 3 without the shared-memory methods, which only a WAL database
 * file uses, never a temporary one. */
static const sqlite3_io_methods tl_methods = {
    .iVersion = 3,
    .xClose = tl_close,
    .xRead = tl_read,
    .xWrite = tl_write,
    .xTruncate = tl_truncate,
    .xSync = tl_sync,
    .xFileSize = tl_file_size,
    .xLock = tl_lock,
    .xUnlock = tl_unlock,
    .xCheckReservedLock = tl_check_reserved,
    .xFileControl = tl_file_control,
    .xSectorSize = tl_sector_size,
    .xDeviceCharacteristics = tl_device,
    .xFetch = tl_fetch,
    .xUnfetch = tl_unfetch,
};

/* The wrapper, then the real file at an 8-byte boundary. */
#define TL_HEAD ((int)((sizeof(struct tl_file) + 7) & ~(size_t)7))

int temp_limit_size(const sqlite3_vfs *real)
{
    return TL_HEAD + real->szOsFile;
}

int temp_limit_is_temp(int flags)
{
    return (flags & (SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_TEMP_DB |
                     SQLITE_OPEN_TRANSIENT_DB)) != 0;
}

int temp_limit_open(sqlite3_vfs *real, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
    struct tl_file *p = (struct tl_file *)f;
    memset(p, 0, sizeof *p);
    p->real = (sqlite3_file *)((char *)f + TL_HEAD);
    memset(p->real, 0, (size_t)real->szOsFile);
    int rc = real->xOpen(real, name, p->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        /* SQLite closes a file whose pMethods is set even when xOpen fails. */
        if (p->real->pMethods)
            p->base.pMethods = &tl_methods;
        return rc;
    }
    p->base.pMethods = &tl_methods;
    return SQLITE_OK;
}

void temp_limit_set(sqlite3_int64 max_bytes)
{
    atomic_store(&limit, max_bytes > 0 ? max_bytes : 0);
    atomic_store(&refused, 0);
}

sqlite3_int64 temp_limit_used(void)
{
    return atomic_load(&used);
}

int temp_limit_refused(void)
{
    return atomic_load(&refused);
}
