/* Sanitized build only (CMakeLists.txt, BENCHDB_SANITIZE): linked into every
 * executable that links benchdb_core. Two things that make a sanitized
 * process cheaper to run on virtual machines where a page fault costs tens
 * of microseconds (docs/testing.md, "What keeps the suite fast").
 *
 * 1. Huge pages for the runtime's big tables. libasan's .bss is 5.5 MB
 * (the stack depot's hash table alone is 4.25 MB, written at a random
 * bucket for each new allocation stack), faulted in a 4 KiB page at a
 * time: about a thousand faults a process. Before anything else of the
 * program runs (.preinit_array, right after AddressSanitizer's own
 * initialization, which is first in that array), each 2 MiB-aligned
 * stretch of a module's zero-filled tail (the part of a writable segment
 * past its file contents: anonymous memory) is marked MADV_HUGEPAGE and
 * collapsed with MADV_COLLAPSE (Linux 6.1) into huge pages. The collapse
 * is what does it: the runtime's start has already faulted a few small
 * pages into each stretch, and a stretch mapped by a table of small pages
 * gets only small pages on later faults. This needs
 * transparent huge pages set to "madvise" or "always"
 * (/sys/kernel/mm/transparent_hugepage/enabled); where they are off or
 * the kernel knows neither call, madvise fails and nothing changes. The
 * memory's contents do not change, only how it is mapped.
 *
 * 2. At exit LeakSanitizer reads every writable segment of every loaded
 * module, looking for pointers into the heap. Most of those pages were
 * never touched, so each read maps a zero page with a fault of its own.
 * MADV_POPULATE_READ (Linux 5.14) maps the same pages in one call, without
 * a fault each; the scan then reads exactly what it read before.
 * Destructors run before the leak check (LSan's check is an atexit handler
 * registered at the runtime's start, earlier than any module's
 * destructors); where the call is not known (an older kernel) it does
 * nothing. */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define SMALL_PAGE ((uintptr_t)4096)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static int huge_tails(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz <= ph->p_filesz)
            continue;
        /* The page holding the file's last byte is file-backed; whole
         * huge pages from the next one on are anonymous. */
        uintptr_t tail = (info->dlpi_addr + ph->p_vaddr + ph->p_filesz + SMALL_PAGE - 1) & ~(SMALL_PAGE - 1);
        uintptr_t begin = (tail + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(HUGE_PAGE - 1);
        if (end <= begin)
            continue;
        if (madvise((void *)begin, end - begin, MADV_HUGEPAGE) == 0)
            (void)madvise((void *)begin, end - begin, MADV_COLLAPSE);
    }
    return 0;
}

static void lsan_huge_tables(void)
{
    dl_iterate_phdr(huge_tails, NULL);
}

/* Executables only: the runtime's initializer is this array's first entry
 * (libasan_preinit.o is linked first). */
__attribute__((section(".preinit_array"), used)) static void (*const lsan_huge_tables_entry)(void) = lsan_huge_tables;

static int populate_writable(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & ~(SMALL_PAGE - 1);
        uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + SMALL_PAGE - 1) & ~(SMALL_PAGE - 1);
        (void)madvise((void *)begin, end - begin, MADV_POPULATE_READ);
    }
    return 0;
}

__attribute__((destructor)) static void lsan_prefault(void)
{
    dl_iterate_phdr(populate_writable, NULL);
}
