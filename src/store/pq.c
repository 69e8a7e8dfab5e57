/* Loading libpq (store/pq.h). */
#define PQ_TABLE_ITSELF
#include "store/pq.h"

#include <dlfcn.h>

#include "util/diag.h"

struct pq_api pq;

int pq_load(char **err)
{
    static void *lib;
    if (lib)
        return 0;
    void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return bd_fail(err, "cannot load libpq, PostgreSQL's client library (Debian's libpq5): %s", dlerror());
#define PQ_LOAD(f)                                                                                                    \
    if (!(*(void **)&pq.f = dlsym(h, #f))) {                                                                          \
        dlclose(h);                                                                                                   \
        return bd_fail(err, "libpq (libpq.so.5) lacks %s: a PostgreSQL 15 or later client library is needed", #f);   \
    }
    PQ_FUNCTIONS(PQ_LOAD)
#undef PQ_LOAD
    lib = h;
    return 0;
}
