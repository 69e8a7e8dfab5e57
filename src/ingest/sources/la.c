/* Loading libarchive (ingest/sources/la.h). */
#define LA_TABLE_ITSELF
#include "ingest/sources/la.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "util/diag.h"

struct la_api la;

/* The library's name as its package installs it: libarchive's soname has
 * been libarchive.so.13 since 3.0 (2011); the build checks it against the
 * headers' library (CMakeLists.txt, BENCHDB_LIBARCHIVE_SONAME). */
#ifndef BENCHDB_LIBARCHIVE_SONAME
#define BENCHDB_LIBARCHIVE_SONAME "libarchive.so.13"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512]; /* why the load failed; empty: loaded */

static void load(void)
{
    void *h = dlopen(BENCHDB_LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(failure, sizeof failure, "cannot load libarchive (Debian's libarchive13), needed for tar, zip, gzip, xz "
                 "and bzip2 input: %s", dlerror());
        return;
    }
#define LA_LOAD(f)                                                                                                    \
    if (!(*(void **)&la.f = dlsym(h, #f))) {                                                                          \
        snprintf(failure, sizeof failure, "libarchive (%s) lacks %s: libarchive 3.6 or later is needed",             \
                 BENCHDB_LIBARCHIVE_SONAME, #f);                                                                      \
        dlclose(h);                                                                                                   \
        return;                                                                                                       \
    }
    LA_FUNCTIONS(LA_LOAD)
#undef LA_LOAD
}

int la_load(char **err)
{
    pthread_once(&once, load);
    return failure[0] ? bd_fail(err, "%s", failure) : 0;
}
