#ifndef BENCHDB_INGEST_SOURCES_USTAR_H
#define BENCHDB_INGEST_SOURCES_USTAR_H
/* A POSIX tar held whole in memory, read without libarchive: the tar that
 * load/bundle.c makes of harness files (ustar headers, a pax header for a
 * path of 100 bytes or more, two zero blocks at the end). Loading
 * libarchive (with libxml2, ICU and libstdc++ behind it) cost more CPU
 * than storing a 100,000-value harness file's values took beyond the
 * store's own floor (bench/README.md, figure 3). Entries of other kinds
 * than benchdb writes (links, devices, GNU long names, base-256 sizes)
 * are refused: libarchive reads every other tar. */
#include <stddef.h>

struct ustar_entry {
    char type;                  /* '0' a regular file ('\0' and '7' read as '0'), '5' a directory, 'g' pax global */
    const char *name;           /* the path: the pax header's, or the header's prefix and name */
    size_t name_len;
    const unsigned char *data;  /* size bytes inside the tar */
    size_t size;
    char name_buf[256 + 1 + 1]; /* prefix "/" name, when the header holds the path */
};

/* The entry at *at of the n bytes at tar: 1 with *e set and *at moved
 * past it, 0 at the end (a zero block, or the bytes' end), -1 with *err. */
int ustar_next(const unsigned char *tar, size_t n, size_t *at, struct ustar_entry *e, char **err);

#endif
