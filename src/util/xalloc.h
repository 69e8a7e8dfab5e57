#ifndef BENCHDB_XALLOC_H
#define BENCHDB_XALLOC_H
/* Allocation that cannot fail, for the layers that do not unwind
 * (docs/architecture.md, "Memory"): output, compare, query, report, sim
 * and cli. When memory runs out each prints "error: out of memory" and
 * aborts; a store being written is left to its transaction (SQLite's
 * journal, the server's rollback), so nothing half-written stays. Ingest,
 * the statistics and the connection layer check every allocation instead
 * and are fault-tested (unit/ingest_oom, unit/stats_oom). */
#include <stddef.h>

void *xmalloc(size_t n);
/* n elements of size each, zeroed; a product that overflows is refused too. */
void *xcalloc(size_t n, size_t size);
/* p grown or shrunk to n elements of size each: assign the result to p
 * (p is never left dangling, as the call cannot fail). */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Called when memory ran out: the message, then abort(). */
_Noreturn void xalloc_die(void);

/* A string buffer's text for these layers (util/strbuf.h: its error is
 * sticky, so one check covers every append): a failed append means memory
 * ran out, so each aborts as above instead of giving NULL. xsb_text is
 * sb's text ("" when nothing was appended), still owned by sb;
 * xsb_detach is sb_detach's, never NULL. */
struct strbuf;
const char *xsb_text(const struct strbuf *sb);
char *xsb_detach(struct strbuf *sb);

#endif
