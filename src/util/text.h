#ifndef BENCHDB_TEXT_H
#define BENCHDB_TEXT_H
#include <stddef.h>

#include "util/strbuf.h"

/* True when a and b are the same text, or both NULL. */
int text_same(const char *a, const char *b);

/* The next item of a comma-separated list (--exact-units and the like),
 * the spaces around it trimmed: 1 with *item and *len (not terminated;
 * *len 0 for an empty item) and *cursor past its comma, 0 at the end. */
int list_next(const char **cursor, const char **item, size_t *len);

/* Room for an RFC 3339 UTC time with milliseconds and its NUL. */
#define TIME_TEXT_MAX 48

/* The current time as RFC 3339 UTC: 2026-10-21T03:57:00Z, or with
 * millis 2026-10-21T03:57:00.123Z. */
void time_now_rfc3339(char out[TIME_TEXT_MAX], int millis);

/* True when s holds nothing but whitespace, SQL comments and semicolons:
 * no statement is left to run. */
int sql_is_blank(const char *s);

/* The whole of a text file a user named ("-": standard input), of at
 * most max bytes, NUL-terminated, malloc'd; *len (if not NULL) gets its
 * size. A path must lead (symbolic links followed) to a regular file: a
 * directory, a device (/dev/zero), a FIFO or a socket is refused before
 * anything is read from it, so nothing blocks or runs without end. A
 * file larger than max, or holding a NUL byte, is refused. NULL with
 * *err set (naming the path, and `what` the file is, e.g. "a saved query
 * file", in the message about max) when it cannot be read. */
char *file_read_text(const char *path, size_t max, const char *what, size_t *len, char **err);
/* What kind of file a mode is, for a message: "a directory", "a FIFO
 * (named pipe)", "a character device", ...; "a regular file". */
const char *file_kind(unsigned mode);
/* A size for a person: "1 MiB", "16 MiB", "512 KiB", "1000 bytes"
 * (whole units only). out holds >= 32 bytes. */
void size_text(char out[32], size_t n);

/* ---- text for a terminal ----
 * Everything benchdb shows a person (tables, Markdown, messages) goes
 * through these, so that data can never drive the terminal: a run named
 * with an ESC sequence prints as \x1b[2J, not as a cleared screen. CSV
 * and JSON keep their bytes exact instead.
 *   \n \r \t                  as those two-character escapes
 *   other C0 controls, DEL    as \xNN
 *   C1 controls U+0080-U+009F as \u00NN
 *   bidirectional controls    as \uNNNN: U+061C, U+200E, U+200F,
 *                             U+202A-U+202E, U+2066-U+2069 (they
 *                             reorder what follows: a reversed name)
 *   bytes that are not UTF-8  as \xNN
 * Everything else, including valid multibyte UTF-8, is kept. */
int sb_put_escaped_controls(struct strbuf *sb, const char *s, size_t n);
/* s with its control characters escaped, malloc'd (never NULL: aborts on
 * out of memory, like bd_strdupf). */
char *text_escape_controls(const char *s);
/* The offset of the first byte of s (n bytes) that is not part of valid
 * UTF-8, or of its first NUL byte; n when there is none. */
size_t utf8_invalid_at(const char *s, size_t n);
/* 3 when s (n bytes) starts with UTF-8's byte order mark (EF BB BF), else
 * 0: what a text file's reader skips before its first line (Windows
 * PowerShell 5's `Set-Content -Encoding UTF8`, Notepad write one). */
size_t utf8_bom_len(const void *s, size_t n);
/* The length (2 to 4) of the well-formed multibyte UTF-8 sequence at s
 * (n > 0 bytes available; the Unicode standard's table 3-7), 0 when the
 * bytes there are not one. */
size_t utf8_sequence(const unsigned char *s, size_t n);

/* s (n bytes) with each byte that is not part of valid UTF-8 replaced by
 * U+FFFD, malloc'd and NUL-terminated (NULL when out of memory); *count
 * (if not NULL) gets how many were replaced. */
char *utf8_replaced(const char *s, size_t n, size_t *count);

/* Terminal columns of a text without control characters: its code points. */
size_t text_width(const char *s);

/* Appends up to max of the n names, ", "-separated, then ", ... (K more)"
 * when some were left out; "(none)" when n is 0. */
int sb_put_name_list(struct strbuf *sb, const char *const *names, size_t n, size_t max);

#endif
