/* Writing a file a user named: through to devices, FIFOs and standard
 * output, or whole into a regular file by a temporary renamed over it
 * (util/outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/text.h"

static void release(struct outfile *o)
{
    free(o->shown);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* A character device or FIFO, opened as it is (no O_CREAT, no O_TRUNC),
 * then checked again: the path may have changed since it was looked at. */
static int open_through(struct outfile *o, const char *path, char **err)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return bd_fail(err, "cannot write %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        close(fd);
        return bd_fail(err, "cannot write %s: it changed while it was opened; nothing written", path);
    }
    if (!(o->f = fdopen(fd, "wb"))) {
        close(fd);
        return bd_fail(err, "cannot write %s: out of memory", path);
    }
    return 0;
}

/* DIR/.NAME.XXXXXX beside target (DIR/.benchdb.XXXXXX when NAME is too
 * long to take the suffix), created by mkstemp. */
static int open_temporary(struct outfile *o, mode_t mode, const struct stat *old, char **err)
{
    const char *slash = strrchr(o->target, '/');
    size_t dirlen = slash ? (size_t)(slash - o->target) : 0;
    const char *base = slash ? slash + 1 : o->target;
    char *dir = slash ? strndup(o->target, dirlen ? dirlen : 1) : strdup(".");
    if (!dir)
        return bd_fail(err, "cannot write %s: out of memory", o->shown);
    o->tmp = strlen(base) + 9 <= NAME_MAX ? bd_strdupf("%s/.%s.XXXXXX", dir, base)
                                          : bd_strdupf("%s/.benchdb.XXXXXX", dir);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        bd_fail(err, "cannot write %s: cannot create a temporary file in %s (written there, then renamed over it): %s",
                o->shown, dir, strerror(errno));
        free(dir);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    free(dir);
    /* Root replacing another user's file gives it back to them; anyone
     * else cannot, and the file becomes theirs, as a rename makes it. */
    if (old && geteuid() == 0 && fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* kept as the writer's: the contents are what matters */
    }
    if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "wb"))) {
        bd_fail(err, "cannot write %s: cannot prepare %s: %s", o->shown, o->tmp, strerror(errno));
        close(fd);
        unlink(o->tmp);
        return -1;
    }
    return 0;
}

/* A name of the command's own in a directory (util/outfile.h): the
 * temporary is renamed over the name itself, never over where a link
 * there leads, so a link is replaced by the file whatever it became since
 * it was looked at. */
int outfile_open_own(struct outfile *o, const char *path, char **err)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    int rc, exists = lstat(path, &st) == 0;
    if (!(o->shown = strdup(path)))
        return bd_fail(err, "out of memory");
    if (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
        rc = bd_fail(err, "cannot write %s: it is %s; only a regular file is replaced there", path,
                     file_kind(st.st_mode));
    else if (!(o->target = strdup(path)))
        rc = bd_fail(err, "out of memory");
    else if (exists && S_ISREG(st.st_mode))
        rc = open_temporary(o, st.st_mode & 07777, &st, err);
    else {
        mode_t um = umask(0); /* read, and put back at once: the process is single-threaded here */
        umask(um);
        rc = open_temporary(o, 0666 & ~um, NULL, err);
    }
    if (rc)
        release(o);
    return rc;
}

int outfile_open(struct outfile *o, const char *path, char **err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->shown = strdup("standard output");
        return o->shown ? 0 : bd_fail(err, "out of memory");
    }
    o->shown = strdup(path);
    if (!o->shown)
        return bd_fail(err, "out of memory");
    struct stat st, lst;
    int rc;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT)
            rc = bd_fail(err, "cannot write %s: %s", path, strerror(errno));
        else if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            rc = bd_fail(err, "cannot write %s: it is a symbolic link to a file that does not exist (not "
                              "followed: name the file itself)", path);
        else if (!(o->target = strdup(path)))
            rc = bd_fail(err, "out of memory");
        else {
            mode_t um = umask(0); /* read, and put back at once: the process is single-threaded here */
            umask(um);
            rc = open_temporary(o, 0666 & ~um, NULL, err);
        }
    } else if (S_ISREG(st.st_mode)) {
        if (!(o->target = realpath(path, NULL)))
            rc = bd_fail(err, "cannot write %s: cannot follow its links: %s", path, strerror(errno));
        else
            rc = open_temporary(o, st.st_mode & 07777, &st, err);
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        rc = open_through(o, path, err);
    else
        rc = bd_fail(err, "cannot write %s: it is %s; an output goes to a regular file, a character device, a "
                          "FIFO or standard output ('-')", path, file_kind(st.st_mode));
    if (rc)
        release(o);
    return rc;
}

int outfile_commit(struct outfile *o, char **err)
{
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !bad)
        bad = 1, saved = errno;
    o->f = NULL;
    int rc = 0;
    if (bad)
        rc = bd_fail(err, "cannot write %s: %s", o->shown, strerror(saved ? saved : EIO));
    else if (o->tmp && rename(o->tmp, o->target) != 0)
        rc = bd_fail(err, "cannot write %s: cannot rename %s over it: %s", o->shown, o->tmp, strerror(errno));
    if (rc && o->tmp)
        unlink(o->tmp);
    release(o);
    return rc;
}

void outfile_abort(struct outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (o->f)
        fflush(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

/* gcc -fanalyzer follows outfile_write_all past a failed outfile_open to a
 * NULL o->f here: it does not know that bd_fail returns -1, so that the
 * failure returns before any write. */
int outfile_put(struct outfile *o, const void *data, size_t n, char **err)
{
    if (!n || fwrite(data, 1, n, o->f) == n)
        return 0;
    return bd_fail(err, "cannot write %s: %s", o->shown, strerror(errno ? errno : EIO));
}

static int write_whole(int own, const char *path, const void *data, size_t n, char **err)
{
    struct outfile o;
    if ((own ? outfile_open_own : outfile_open)(&o, path, err))
        return -1;
    if (outfile_put(&o, data, n, err)) {
        outfile_abort(&o);
        return -1;
    }
    return outfile_commit(&o, err);
}

int outfile_write_all(const char *path, const void *data, size_t n, char **err)
{
    return write_whole(0, path, data, n, err);
}

int outfile_write_own(const char *path, const void *data, size_t n, char **err)
{
    return write_whole(1, path, data, n, err);
}
