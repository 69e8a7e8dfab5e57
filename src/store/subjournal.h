#ifndef BENCHDB_STORE_SUBJOURNAL_H
#define BENCHDB_STORE_SUBJOURNAL_H
/* The VFS benchdb opens its SQLite files with: the system's default VFS,
 * except for the statement journal (subjournal.c says why). */

/* The first SUBJOURNAL_MEM_MAX bytes of a statement journal that outgrew
 * SQLite's own 64 KiB are held in memory, the rest in a temporary file. */
#define SUBJOURNAL_MEM_MAX (4 << 20)

/* The VFS's name, registered on the first call (not as the default);
 * NULL, and SQLite's default VFS used, where it could not be. */
const char *store_vfs(void);

#endif
