#include "store/unit_rows.h"

#include <string.h>

int store_unit_find(const char *unit)
{
    for (int i = 0; i < store_unit_count; i++)
        if (strcmp(store_units[i].name, unit) == 0)
            return i;
    return -1;
}
