/* An archive's claim: while a process stores an archive, it holds an fcntl
 * write lock on STORE-ingest-SHA256.lock, a file beside the store named by
 * the archive's identity. Another process about to store the same archive
 * waits for that lock however long it is held (SQLite's write lock would
 * fail it after the busy timeout), then finds the archive stored and skips
 * it. docs/reliability.md, "Concurrency".
 *
 * The holder removes the file before it lets go of the lock; a waiter that
 * then gets the lock on the removed file sees that the path no longer
 * leads to it and takes the lock on the path's new file instead, so two
 * processes never both hold a claim. A crash frees the lock with the
 * process; the file stays, empty and harmless, until the same archive is
 * next loaded. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/load/loader.h"
#include "store/dialect.h"
#include "util/diag.h"

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The process holding a lock on fd's file, 0 when unknown or none. */
static long lock_holder(int fd)
{
    struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    return fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : 0;
}

/* True when path still names the file open on fd. */
static int same_file(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int claim_take(struct ingester *g, const char *sha, struct claim *c)
{
    c->fd = -1;
    c->path = NULL;
    /* On PostgreSQL the archive's advisory lock (sink_archive_open,
     * sink_lock_archive) is its claim. */
    const char *store = db_filename(g->db);
    if (!store) /* a server's, or an in-memory store: no other process */
        return -1;
    c->path = bd_strdupf("%s-ingest-%s.lock", store, sha);
    struct stat st;
    mode_t mode = stat(store, &st) == 0 ? st.st_mode & 0666 : 0644;
    double t0 = seconds_now();
    int waited = 0;
    for (;;) {
        int fd = open(c->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode);
        if (fd < 0)
            break;
        (void)!fchmod(fd, mode); /* as the store's (as SQLite makes its -wal), whatever the umask */
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        int failed = 0;
        while (!failed && fcntl(fd, F_SETLK, &fl) != 0) {
            if (errno == EINTR)
                continue;
            if (errno != EACCES && errno != EAGAIN) { /* no locks here (ENOLCK): go on without */
                failed = 1;
                break;
            }
            long pid = lock_holder(fd);
            if (!waited++) {
                char who[48] = "another process";
                if (pid)
                    snprintf(who, sizeof who, "process %ld", pid);
                ingest_report_notice(&g->rep, "%s: waiting for %s, which is storing the same archive (sha256 %.12s...)",
                                     g->shown, who, sha);
            }
            if (g->hooks.waiting)
                g->hooks.waiting(g->hooks.arg, pid, seconds_now() - t0);
            pause_ms(100);
        }
        if (failed) {
            close(fd);
            break;
        }
        if (same_file(fd, c->path)) {
            c->fd = fd;
            if (waited && g->hooks.waiting)
                g->hooks.waiting(g->hooks.arg, 0, -1);
            return waited ? 1 : 0;
        }
        close(fd); /* its holder removed it: the path's new file is the claim */
    }
    if (waited && g->hooks.waiting)
        g->hooks.waiting(g->hooks.arg, 0, -1);
    free(c->path);
    c->path = NULL;
    return -1;
}

void claim_release(struct claim *c)
{
    if (c->fd >= 0) {
        unlink(c->path); /* while still held: see the top of this file */
        close(c->fd);
    }
    free(c->path);
    c->fd = -1;
    c->path = NULL;
}
