#ifndef BENCHDB_OUTFILE_H
#define BENCHDB_OUTFILE_H
#include <stddef.h>
#include <stdio.h>

/* ---- writing a file a user named (-o FILE, simulate's archives) ----
 * Every command that writes an output file goes through these, so that
 * each treats the name alike (docs/reliability.md, "Output files"):
 *   "-"                      standard output
 *   a character device, FIFO written through, as the shell's > would:
 *                            -o /dev/null discards, -o /dev/stdout or a
 *                            link to /proc/self/fd/1 writes there, a FIFO
 *                            waits for its reader
 *   a regular file           replaced whole or not at all: written to a
 *                            temporary file in its directory, then renamed
 *                            over it; a symbolic link (or a chain of them)
 *                            to a regular file is followed, so the file it
 *                            leads to is replaced, not the link
 *   nothing yet              created the same way (the temporary renamed to
 *                            the name)
 *   anything else            refused by kind, nothing written: a directory,
 *                            a block device (a disk, not a report), a
 *                            socket, a link to nothing (written through, it
 *                            would create a file wherever it points)
 * The temporary is made by mkstemp: a new name (O_CREAT | O_EXCL, mode
 * 0600) in the target's directory, so a link planted at a predictable
 * name is never followed and no one else can read it half-written. Before
 * the rename it takes the permission bits of the file it replaces (a new
 * file: 0666 less the umask, as the shell's > gives) and, run as root, its
 * owner and group. The file's other hard links keep the old contents. */
struct outfile {
    FILE *f;      /* where to write */
    char *shown;  /* the name for messages: the path given, or "standard output" */
    char *target; /* the regular file the temporary replaces (links followed), or NULL: written through */
    char *tmp;    /* the temporary's path, or NULL */
};

/* Opens path for writing as above. Returns 0, or -1 with *err ("cannot
 * write PATH: it is a directory; ...", "cannot write PATH: cannot create a
 * temporary file in DIR ...") and nothing created. */
int outfile_open(struct outfile *o, const char *path, char **err);
/* The same for a name the command chose inside a directory the user
 * named (simulate's archives): a symbolic link there is replaced by the
 * file, never followed (followed, it let whoever could write the
 * directory choose which file elsewhere was overwritten); a regular file
 * is replaced as above; a device, FIFO, directory or socket refused. */
int outfile_open_own(struct outfile *o, const char *path, char **err);
/* Flushes and closes; for a regular file renames the temporary into
 * place. Returns 0, or -1 with *err (the temporary removed, the target
 * unchanged). o is released either way. */
int outfile_commit(struct outfile *o, char **err);
/* Closes without committing: the temporary removed, the target as it was
 * (what was written through to a device or FIFO stays written). */
void outfile_abort(struct outfile *o);

/* Writes n bytes of data. Returns 0, or -1 with *err ("cannot write
 * NAME: WHY"); then outfile_abort. */
int outfile_put(struct outfile *o, const void *data, size_t n, char **err);

/* The whole of data to path (outfile_open, write, outfile_commit). */
int outfile_write_all(const char *path, const void *data, size_t n, char **err);
/* The same through outfile_open_own: a name the command chose. */
int outfile_write_own(const char *path, const void *data, size_t n, char **err);

#endif
