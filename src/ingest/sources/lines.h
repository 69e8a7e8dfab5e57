#ifndef BENCHDB_INGEST_SOURCES_LINES_H
#define BENCHDB_INGEST_SOURCES_LINES_H
/* The one line reader: splits decoded bytes into lines ended by "\n" or
 * "\r\n", for a bare stream and a container's stream member alike. A line
 * is handed out in place when a block holds it whole and gathered into one
 * buffer otherwise; a line longer than the limit is refused as soon as it
 * passes it, without being held whole. */
#include <stdint.h>

#include "ingest/sources/blocks.h"
#include "util/strbuf.h"

struct lines {
    struct blocks in;
    uint64_t max_line; /* longest line accepted, in bytes without its terminator */
    uint64_t lineno;   /* number of the line last returned */

    /* private */
    const unsigned char *data;
    size_t pos, len;
    int eof;
    struct strbuf line;
};

void lines_init(struct lines *l, struct blocks in, uint64_t max_line);
/* The next line without its terminator: 1 with *line and *len set (valid
 * until the next call; l->lineno is its number), 0 at the end, or -1 with
 * *err set and *err_line the line it belongs to (0: none, e.g. a read or
 * decompression error). */
int lines_next(struct lines *l, const char **line, size_t *len, char **err, uint64_t *err_line);
void lines_free(struct lines *l);

/* True when s (n bytes) holds only spaces and tabs: a line to ignore. */
int line_is_blank(const char *s, size_t n);

#endif
