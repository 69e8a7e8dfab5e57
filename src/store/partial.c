/* A new SQLite file made whole or not at all: written under a temporary
 * name beside it, renamed once whole (db_internal.h; copy into a new file,
 * backup: docs/copy.md). */
#define _GNU_SOURCE /* renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db_internal.h"
#include "util/diag.h"
#include "util/tempguard.h"

/* SQLite's files beside a database, removed and guarded with it. */
static const char *const siblings[] = {"", "-journal", "-wal", "-shm"};
#define NSIBLINGS (sizeof siblings / sizeof siblings[0])

/* Each of tmp's files: guarded (on 1), or no longer (0); removed when
 * rm. -1 when memory ran out. */
static int each_file(const char *tmp, int on, int rm)
{
    int rc = 0;
    for (size_t i = 0; i < NSIBLINGS; i++) {
        char *p = bd_strdupf("%s%s", tmp, siblings[i]);
        if (!p) {
            rc = -1;
            continue;
        }
        if (rm)
            unlink(p);
        if (on && tempguard_add(p))
            rc = -1;
        if (!on)
            tempguard_remove(p);
        free(p);
    }
    return rc;
}

/* PATH.partial-XXXXXX made by mkstemp (a new name, O_CREAT | O_EXCL: a
 * link planted at a name it could get is never followed) with the mode
 * SQLite gives a new database (0644 less the umask), guarded from the
 * moment it exists. */
char *store_partial_new(const char *path)
{
    char *tmp = bd_strdupf("%s.partial-XXXXXX", path);
    if (!tmp)
        return errno = ENOMEM, NULL;
    int fd = mkstemp(tmp);
    if (fd < 0 || each_file(tmp, 1, 0)) {
        int saved = fd < 0 ? errno : ENOMEM;
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
            each_file(tmp, 0, 0);
        }
        free(tmp);
        return errno = saved, NULL;
    }
    mode_t um = umask(0); /* read, and put back at once: the process is single-threaded here */
    umask(um);
    int bad = fchmod(fd, 0644 & ~um) != 0, saved = errno;
    if (close(fd) != 0 && !bad)
        bad = 1, saved = errno;
    if (bad) {
        store_partial_discard(tmp);
        return errno = saved, NULL;
    }
    return tmp;
}

void store_partial_discard(char *tmp)
{
    each_file(tmp, 0, 1);
    free(tmp);
}

/* tmp renamed to path only while path does not exist (renameat2's
 * RENAME_NOREPLACE), so that a file made there meanwhile is not replaced;
 * a file system without it gets a plain rename. */
int store_partial_place(char *tmp, const char *path, char **err)
{
    int rc = 0;
    struct stat st;
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        rc = 0;
    else if (errno == EEXIST || ((errno == EINVAL || errno == ENOSYS) && lstat(path, &st) == 0))
        rc = bd_fail(err, "%s: already exists (a new file is written whole, then named so; this one was made "
                          "meanwhile)", path);
    else if ((errno == EINVAL || errno == ENOSYS) && rename(tmp, path) == 0)
        rc = 0;
    else
        rc = bd_fail(err, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
    if (rc == 0) {
        each_file(tmp, 0, 0); /* SQLite removed its own files as the store closed */
        free(tmp);
    } else
        store_partial_discard(tmp);
    return rc;
}
