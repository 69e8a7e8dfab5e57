#ifndef BENCHDB_UTIL_HUGEPAGE_H
#define BENCHDB_UTIL_HUGEPAGE_H
#include <stddef.h>

/* Asks for the n bytes at p (a buffer just allocated, not yet touched) to
 * be backed by transparent huge pages, when they span at least 2 MiB of
 * whole pages: where THP is in "madvise" mode (as on the machines benchdb
 * is measured on) their first touch then costs a page fault per 2 MiB
 * instead of one per 4 KiB, and on a paravirtualised machine a fault costs
 * more than the copy that fills its page (bench/README.md, figure 3).
 * Only the whole pages inside the buffer are advised; advice refused, or
 * a system without it, changes nothing. */
void mem_advise_huge(void *p, size_t n);

/* Once, in main() before anything is allocated: malloc's main heap is
 * grown to hold n bytes at once and kept (never trimmed below that), and
 * its pages advised as above, so that what the main thread allocates and
 * frees and allocates again (SQLite's page cache, rows, statements, a
 * reader's arrays) is faulted in 2 MiB at a time and reused rather than
 * given back and faulted in again; a buffer of 4 MiB or more still gets
 * pages of its own (mmap), given back when freed. (The reading thread
 * keeps its own arena: one heap for both threads faulted less but was no
 * faster, slower on the largest JSON files.) glibc's
 * glibc.malloc.hugetlb=1 does the like for every heap, set from the
 * environment; this needs none. Untouched, the n bytes cost address
 * space, not memory. */
void mem_heap_setup(size_t n);

#endif
