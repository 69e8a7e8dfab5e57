#ifndef BENCHDB_NATURAL_H
#define BENCHDB_NATURAL_H
#include <stddef.h>

/* Names in the order a person reads them: runs of digits compare as
 * numbers (null-2 before null-10, ci-a-0097 before ci-a-100), everything
 * else byte by byte; numbers equal in value but written differently (07
 * and 7) are ordered by their length, then the texts by bytes, so that
 * the order is total and two names compare equal only when they are
 * equal. NULL sorts first. */
int natural_compare(const char *a, const char *b);
/* qsort over an array of const char *. */
int natural_compare_ptr(const void *a, const void *b);
/* Sorts names[0..n) naturally. */
void natural_sort(const char **names, size_t n);

#endif
