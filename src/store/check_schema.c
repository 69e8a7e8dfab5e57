/* 'benchdb check': the schema version, read as store_open reads it, with
 * the damage that store_open lets through for check (STORE_CHECK) named as
 * a problem. */
#include <stdlib.h>

#include "store/store.h"
#include "util/diag.h"

int store_check_schema(sqlite3 *db, FILE *out, int *problems)
{
    int version;
    char *why = NULL;
    enum store_schema s = store_schema_state(db, &version, &why);
    if (s == SCHEMA_STORE) {
        fprintf(out, "check: schema: version %d (migrations 1 to %d recorded): ok\n", version, version);
        return 0;
    }
    bd_error("check: schema: %s", why ? why : "no benchdb schema (an empty file)");
    free(why);
    if (s != SCHEMA_DAMAGED)
        return -1;
    (*problems)++;
    fprintf(out, "check: schema: PROBLEMS\n");
    return 0;
}
