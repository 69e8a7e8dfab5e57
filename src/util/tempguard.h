#ifndef BENCHDB_UTIL_TEMPGUARD_H
#define BENCHDB_UTIL_TEMPGUARD_H

/* Files a command makes under a temporary name, to be renamed into place
 * once whole (copy into a new file, backup), removed should a signal end
 * the process first: Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT unlinks
 * every guarded file, then the signal takes its default course (the
 * process ends by it, as the shell expects). Nothing can remove them
 * after SIGKILL: their names (PATH.partial-XXXXXX) say what they are.
 * TEMPGUARD_MAX files at most. */
#define TEMPGUARD_MAX 8

/* Guards path (copied). The handlers are installed with the first file.
 * 0, or -1 when memory ran out or TEMPGUARD_MAX are guarded. */
int tempguard_add(const char *path);
/* Stops guarding path (after renaming or removing it); the handlers
 * are put back as they were when no file is left. */
void tempguard_remove(const char *path);

#endif
