/* fault_cost [MB]: what touching fresh memory costs on this machine
 * (docs/testing.md, "What a page fault costs here"). Maps MB (default 256)
 * of anonymous memory and times, per 4 KiB page: the first write to each
 * page with small pages, again after MADV_DONTNEED (the kernel's pages
 * reused), with transparent huge pages, after MADV_POPULATE_WRITE (the
 * populate itself, then the first write), and a second write to pages
 * already touched. Wall time: run it on an idle machine.
 *     cc -O2 -o /tmp/fault_cost tools/fault_cost.c && /tmp/fault_cost */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void touch(volatile char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 4096)
        p[i]++;
}

static char *map(size_t n, int advice)
{
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    madvise(p, n, advice);
    return p;
}

static void report(const char *what, double t0, size_t n)
{
    printf("%-44s %7.2f us a 4 KiB page\n", what, (now() - t0) * 1e6 / (double)(n / 4096));
}

int main(int argc, char **argv)
{
    size_t n = (size_t)(argc > 1 ? atoi(argv[1]) : 256) << 20;
    char *p = map(n, MADV_NOHUGEPAGE);
    double t = now();
    touch(p, n);
    report("first write, small pages", t, n);
    t = now();
    touch(p, n);
    report("second write", t, n);
    madvise(p, n, MADV_DONTNEED);
    t = now();
    touch(p, n);
    report("first write again after MADV_DONTNEED", t, n);
    munmap(p, n);
    p = map(n, MADV_HUGEPAGE);
    t = now();
    touch(p, n);
    report("first write, transparent huge pages", t, n);
    munmap(p, n);
    p = map(n, MADV_NOHUGEPAGE);
    t = now();
    int rc = madvise(p, n, MADV_POPULATE_WRITE);
    report(rc == 0 ? "MADV_POPULATE_WRITE" : "MADV_POPULATE_WRITE (failed)", t, n);
    t = now();
    touch(p, n);
    report("first write after it", t, n);
    munmap(p, n);
    return 0;
}
