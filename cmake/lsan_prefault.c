/* Sanitized build only (CMakeLists.txt, BENCHDB_SANITIZE): linked into every
 * executable that links benchdb_core.
 *
 * At exit LeakSanitizer reads every writable segment of every loaded
 * module, looking for pointers into the heap. Most of those pages were
 * never touched (the sanitizer runtime's own tables: libasan's stack depot
 * alone is megabytes of .bss), so each read maps a zero page with a page
 * fault of its own, and on the virtual machines the suite runs on a fault
 * costs tens of microseconds: about 1,800 faults and a third of a sanitized
 * benchdb process's CPU (docs/testing.md, "What keeps the suite fast").
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

static int populate_writable(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)4095;
        uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + 4095) & ~(uintptr_t)4095;
        (void)madvise((void *)begin, end - begin, MADV_POPULATE_READ);
    }
    return 0;
}

__attribute__((destructor)) static void lsan_prefault(void)
{
    dl_iterate_phdr(populate_writable, NULL);
}
