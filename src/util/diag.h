#ifndef BENCHDB_DIAG_H
#define BENCHDB_DIAG_H
#include <stdarg.h>

/* Exit codes of every command (benchdb help and docs/queries.md list them). */
enum exit_code {
    EXIT_OK = 0,
    EXIT_FAIL = 1,      /* runtime failure: bad input, I/O, SQL error */
    EXIT_USAGE = 2,     /* bad command line, parameters included */
    EXIT_NOT_HELD = 3,  /* query --gate: the outcome does not hold in every row */
    EXIT_NO_ROWS = 4,   /* query --gate: no rows; any query: its needs are unmet */
    EXIT_INCOMPLETE = 5, /* compare --gate-strict: not everything the baseline holds was judged */
};

/* Messages on stderr, each one line with a prefix: "error: ...", "warning: ...".
 * Control characters in a message are escaped (text_escape_controls), so a
 * value quoted in it cannot drive the terminal. */
void bd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bd_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bd_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: prints "error: ..." and a hint to --help; returns EXIT_USAGE. */
int bd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* malloc'd printf; aborts on out of memory (only for short messages). */
char *bd_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *bd_vstrdupf(const char *fmt, va_list ap);
/* Sets *err (if err is not NULL, freeing an earlier message) and returns -1. */
int bd_fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
