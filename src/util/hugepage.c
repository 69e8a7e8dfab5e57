#include "util/hugepage.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void mem_advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    enum { HUGE = 2u << 20 };
    if (!p || n < HUGE)
        return;
    long ps = sysconf(_SC_PAGESIZE);
    uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096u;
    uintptr_t lo = ((uintptr_t)p + page - 1) / page * page, hi = ((uintptr_t)p + n) / page * page;
    if (hi > lo && hi - lo >= HUGE)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

void mem_heap_setup(size_t n)
{
#ifdef M_MMAP_THRESHOLD
    /* from the heap (sbrk), not mmap: the main arena's own pages */
    if (mallopt(M_MMAP_THRESHOLD, (int)(n + (1u << 20))) != 1 || mallopt(M_TRIM_THRESHOLD, (int)(2 * n)) != 1)
        return;
    void *p = malloc(n);
    if (p)
        mem_advise_huge(p, n);
    free(p); /* back to the top of the heap, which keeps it (the trim threshold) */
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
#else
    (void)n;
#endif
}
