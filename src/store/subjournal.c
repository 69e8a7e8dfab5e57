/* A statement journal that stays in memory (docs/architecture.md, "The
 * statement journal").
 *
 * Inside a transaction SQLite keeps, for each statement that may fail
 * half-way (one with triggers, several rows, foreign keys: every insert of
 * a series), the pages the statement changes that existed before it, so
 * that it can undo that statement alone. It holds them in memory up to
 * 64 KiB (SQLITE_STMTJRNL_SPILL); the first statement of a transaction to
 * pass that moves the journal into a temporary file, and the file stays
 * until the transaction ends: every later statement then writes its pages
 * there, two write() calls a page. An ingest's transaction holds one
 * archive: 80,000 Google Benchmark names (160,000 series) filled the 8 MiB
 * page cache, one statement passed 64 KiB, and 1.5 million writes of the
 * same few pages followed (5 of the 6 s; bench/README.md, figure 3).
 *
 * SQLite opens that temporary file through the connection's VFS: this one
 * is the default VFS with the statement journal's file replaced by a
 * buffer of up to SUBJOURNAL_MEM_MAX bytes, beyond which the bytes go to
 * a temporary file of the default VFS (at the same offsets). Each
 * statement writes its journal from offset 0 again, so a statement of a
 * few pages costs a copy in memory however large an earlier one was, and
 * memory stays bounded. Every other temporary file (and the statement
 * journal's own) is the default VFS's wrapped by temp_limit.c, which
 * counts and bounds the disk they take; the store's file and its journals
 * are the default VFS's own. */
#include "store/subjournal.h"
#include "store/temp_limit.h"

#include <pthread.h>
#include <string.h>

#include <sqlite3.h>

struct sj_file {
    sqlite3_file base;
    sqlite3_vfs *real;
    int flags;
    unsigned char *mem; /* bytes [0, mem_cap) of the file */
    sqlite3_int64 mem_cap;
    sqlite3_int64 size;  /* the file's size: its highest byte written, or where it was truncated */
    sqlite3_file *disk;  /* bytes from SUBJOURNAL_MEM_MAX on, at their own offsets; opened when first needed */
};

static int sj_close(sqlite3_file *f)
{
    struct sj_file *p = (struct sj_file *)f;
    int rc = SQLITE_OK;
    if (p->disk) {
        rc = p->disk->pMethods->xClose(p->disk);
        sqlite3_free(p->disk);
    }
    sqlite3_free(p->mem);
    p->disk = NULL;
    p->mem = NULL;
    return rc;
}

static int open_disk(struct sj_file *p)
{
    sqlite3_file *d = sqlite3_malloc(temp_limit_size(p->real));
    if (!d)
        return SQLITE_IOERR_NOMEM;
    memset(d, 0, (size_t)temp_limit_size(p->real));
    int rc = temp_limit_open(p->real, NULL, d, p->flags, NULL);
    if (rc != SQLITE_OK) {
        if (d->pMethods)
            d->pMethods->xClose(d);
        sqlite3_free(d);
        return rc;
    }
    p->disk = d;
    return SQLITE_OK;
}

/* Room in memory for bytes [0, end), end <= SUBJOURNAL_MEM_MAX. */
static int grow_mem(struct sj_file *p, sqlite3_int64 end)
{
    if (end <= p->mem_cap)
        return SQLITE_OK;
    sqlite3_int64 cap = p->mem_cap ? p->mem_cap : 128 << 10;
    while (cap < end)
        cap *= 2;
    if (cap > SUBJOURNAL_MEM_MAX)
        cap = SUBJOURNAL_MEM_MAX;
    unsigned char *m = sqlite3_realloc64(p->mem, (sqlite3_uint64)cap);
    if (!m)
        return SQLITE_IOERR_NOMEM;
    p->mem = m;
    p->mem_cap = cap;
    return SQLITE_OK;
}

static int sj_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
    struct sj_file *p = (struct sj_file *)f;
    const unsigned char *b = buf;
    sqlite3_int64 end = off + amt;
    if (off < SUBJOURNAL_MEM_MAX) {
        sqlite3_int64 in_mem = (end < SUBJOURNAL_MEM_MAX ? end : SUBJOURNAL_MEM_MAX) - off;
        int rc = grow_mem(p, off + in_mem);
        if (rc != SQLITE_OK)
            return rc;
        if (off > p->size) /* a gap (SQLite writes in order): reads as zeros */
            memset(p->mem + p->size, 0, (size_t)(off - p->size));
        memcpy(p->mem + off, b, (size_t)in_mem);
        b += in_mem;
        off += in_mem;
    }
    if (off < end) {
        int rc = p->disk ? SQLITE_OK : open_disk(p);
        if (rc == SQLITE_OK)
            rc = p->disk->pMethods->xWrite(p->disk, b, (int)(end - off), off);
        if (rc != SQLITE_OK)
            return rc;
    }
    if (end > p->size)
        p->size = end;
    return SQLITE_OK;
}

static int sj_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
    struct sj_file *p = (struct sj_file *)f;
    unsigned char *b = buf;
    sqlite3_int64 end = off + amt, have = end < p->size ? end : p->size;
    if (off < have && off < SUBJOURNAL_MEM_MAX) {
        sqlite3_int64 n = (have < SUBJOURNAL_MEM_MAX ? have : SUBJOURNAL_MEM_MAX) - off;
        memcpy(b, p->mem + off, (size_t)n);
        b += n;
        off += n;
    }
    if (off < have) {
        int rc = p->disk->pMethods->xRead(p->disk, b, (int)(have - off), off);
        if (rc != SQLITE_OK)
            return rc;
        b += have - off;
        off = have;
    }
    if (off < end) { /* past the end: zeros and a short read, as a file gives */
        memset(b, 0, (size_t)(end - off));
        return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
}

static int sj_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    struct sj_file *p = (struct sj_file *)f;
    if (size < p->size)
        p->size = size;
    if (p->disk && size >= SUBJOURNAL_MEM_MAX)
        return p->disk->pMethods->xTruncate(p->disk, size);
    return SQLITE_OK;
}

static int sj_sync(sqlite3_file *f, int flags)
{
    (void)f;
    (void)flags;
    return SQLITE_OK; /* a statement journal does not outlive the process */
}

static int sj_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
    *size = ((struct sj_file *)f)->size;
    return SQLITE_OK;
}

static int sj_lock(sqlite3_file *f, int level)
{
    (void)f;
    (void)level;
    return SQLITE_OK;
}

static int sj_check_reserved(sqlite3_file *f, int *out)
{
    (void)f;
    *out = 0;
    return SQLITE_OK;
}

static int sj_file_control(sqlite3_file *f, int op, void *arg)
{
    (void)f;
    (void)op;
    (void)arg;
    return SQLITE_NOTFOUND;
}

static int sj_sector_size(sqlite3_file *f)
{
    (void)f;
    return 4096;
}

static int sj_device(sqlite3_file *f)
{
    (void)f;
    return 0;
}

static const sqlite3_io_methods sj_methods = {
    .iVersion = 1,
    .xClose = sj_close,
    .xRead = sj_read,
    .xWrite = sj_write,
    .xTruncate = sj_truncate,
    .xSync = sj_sync,
    .xFileSize = sj_file_size,
    .xLock = sj_lock,
    .xUnlock = sj_lock,
    .xCheckReservedLock = sj_check_reserved,
    .xFileControl = sj_file_control,
    .xSectorSize = sj_sector_size,
    .xDeviceCharacteristics = sj_device,
};

/* ---- the VFS: the default one's methods, given the default VFS ---- */

static sqlite3_vfs vfs;

#define REAL ((sqlite3_vfs *)vfs.pAppData)

static int v_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
    (void)v;
    if (!(flags & SQLITE_OPEN_SUBJOURNAL))
        return temp_limit_is_temp(flags) ? temp_limit_open(REAL, name, f, flags, out_flags)
                                         : REAL->xOpen(REAL, name, f, flags, out_flags);
    struct sj_file *p = (struct sj_file *)f;
    memset(p, 0, sizeof *p);
    p->real = REAL;
    p->flags = flags;
    p->base.pMethods = &sj_methods;
    if (out_flags)
        *out_flags = flags;
    return SQLITE_OK;
}

static int v_delete(sqlite3_vfs *v, const char *name, int sync_dir)
{
    (void)v;
    return REAL->xDelete(REAL, name, sync_dir);
}

static int v_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
    (void)v;
    return REAL->xAccess(REAL, name, flags, out);
}

static int v_full_pathname(sqlite3_vfs *v, const char *name, int n, char *out)
{
    (void)v;
    return REAL->xFullPathname(REAL, name, n, out);
}

static void *v_dl_open(sqlite3_vfs *v, const char *name)
{
    (void)v;
    return REAL->xDlOpen(REAL, name);
}

static void v_dl_error(sqlite3_vfs *v, int n, char *msg)
{
    (void)v;
    REAL->xDlError(REAL, n, msg);
}

static void (*v_dl_sym(sqlite3_vfs *v, void *h, const char *sym))(void)
{
    (void)v;
    return REAL->xDlSym(REAL, h, sym);
}

static void v_dl_close(sqlite3_vfs *v, void *h)
{
    (void)v;
    REAL->xDlClose(REAL, h);
}

static int v_randomness(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return REAL->xRandomness(REAL, n, out);
}

static int v_sleep(sqlite3_vfs *v, int us)
{
    (void)v;
    return REAL->xSleep(REAL, us);
}

static int v_current_time(sqlite3_vfs *v, double *t)
{
    (void)v;
    return REAL->xCurrentTime(REAL, t);
}

static int v_last_error(sqlite3_vfs *v, int n, char *msg)
{
    (void)v;
    return REAL->xGetLastError(REAL, n, msg);
}

static int v_current_time64(sqlite3_vfs *v, sqlite3_int64 *t)
{
    (void)v;
    return REAL->xCurrentTimeInt64(REAL, t);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int registered;

static void register_vfs(void)
{
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (!real || real->iVersion < 2 || !real->xCurrentTimeInt64)
        return;
    int size = temp_limit_size(real); /* larger than the real file's */
    vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = size > (int)sizeof(struct sj_file) ? size : (int)sizeof(struct sj_file),
        .mxPathname = real->mxPathname,
        .zName = "benchdb",
        .pAppData = real,
        .xOpen = v_open,
        .xDelete = v_delete,
        .xAccess = v_access,
        .xFullPathname = v_full_pathname,
        .xDlOpen = real->xDlOpen ? v_dl_open : NULL,
        .xDlError = real->xDlError ? v_dl_error : NULL,
        .xDlSym = real->xDlSym ? v_dl_sym : NULL,
        .xDlClose = real->xDlClose ? v_dl_close : NULL,
        .xRandomness = v_randomness,
        .xSleep = v_sleep,
        .xCurrentTime = v_current_time,
        .xGetLastError = real->xGetLastError ? v_last_error : NULL,
        .xCurrentTimeInt64 = v_current_time64,
    };
    registered = sqlite3_vfs_register(&vfs, 0) == SQLITE_OK;
}

const char *store_vfs(void)
{
    pthread_once(&once, register_vfs);
    return registered ? vfs.zName : NULL;
}
