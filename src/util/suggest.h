#ifndef BENCHDB_SUGGEST_H
#define BENCHDB_SUGGEST_H
#include <stddef.h>

/* "Did you mean": the candidate closest to word, or NULL when none is
 * close. Close means an edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours, case ignored) of at most a
 * third of the word's length, and at least 1; a candidate the word is a
 * prefix of (3 letters or more) counts as close too. Ties go to the
 * earlier candidate. */
const char *suggest_closest(const char *word, const char *const *candidates, size_t n);

/* The edit distance described above (optimal string alignment). */
size_t suggest_distance(const char *a, const char *b);

/* "no KIND named 'NAME'; did you mean 'NEAR'?", or when nothing is near
 * "no KIND named 'NAME'; KINDS: a, b, ..." (at most 12 names). malloc'd. */
char *suggest_unknown(const char *kind, const char *kinds, const char *name, const char *const *names, size_t n);

/* The max candidates nearest to word, nearest first, into out: those
 * holding the word (case ignored) first, then by the edit distance above,
 * ties in the candidates' order. Returns how many (min(n, max)). */
size_t suggest_nearest(const char *word, const char *const *candidates, size_t n, const char **out, size_t max);

#endif
