/* Natural order of names (util/natural.h). */
#include "util/natural.h"

#include <stdlib.h>
#include <string.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int natural_compare(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    const char *pa = a, *pb = b;
    int tie = 0; /* the first difference in how an equal number is written */
    while (*pa && *pb) {
        if (is_digit(*pa) && is_digit(*pb)) {
            const char *sa = pa, *sb = pb;
            while (*sa == '0')
                sa++;
            while (*sb == '0')
                sb++;
            const char *ea = sa, *eb = sb;
            while (is_digit(*ea))
                ea++;
            while (is_digit(*eb))
                eb++;
            /* More significant digits: a larger number. */
            if (ea - sa != eb - sb)
                return ea - sa < eb - sb ? -1 : 1;
            int c = strncmp(sa, sb, (size_t)(ea - sa));
            if (c)
                return c < 0 ? -1 : 1;
            if (!tie && ea - pa != eb - pb)
                tie = ea - pa < eb - pb ? -1 : 1;
            pa = ea;
            pb = eb;
            continue;
        }
        if (*pa != *pb)
            return (unsigned char)*pa < (unsigned char)*pb ? -1 : 1;
        pa++;
        pb++;
    }
    if (*pa || *pb)
        return *pa ? 1 : -1;
    if (tie)
        return tie;
    int c = strcmp(a, b);
    return (c > 0) - (c < 0);
}

int natural_compare_ptr(const void *a, const void *b)
{
    return natural_compare(*(const char *const *)a, *(const char *const *)b);
}

void natural_sort(const char **names, size_t n)
{
    if (n > 1)
        qsort(names, n, sizeof *names, natural_compare_ptr);
}
