/* "Did you mean": the nearest name to a mistyped command, option, saved
 * query or parameter. */
#include "util/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strbuf.h"
#include "util/text.h"

size_t suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    /* Three rows of the dynamic programme: two back, one back, this one. */
    size_t *buf = calloc(3 * (m + 1), sizeof *buf);
    if (!buf)
        return (size_t)-1;
    size_t *pp = buf, *p = buf + m + 1, *c = buf + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        p[j] = j;
    for (size_t i = 1; i <= n; i++) {
        c[0] = i;
        for (size_t j = 1; j <= m; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            size_t best = p[j - 1] + (ai != bj);
            if (p[j] + 1 < best)
                best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == bj && pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best;
        }
        size_t *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    size_t d = p[m];
    free(buf);
    return d;
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t n)
{
    size_t len = strlen(word), limit = len / 3 ? len / 3 : 1;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = suggest_distance(word, candidates[i]);
        if (d == 0)
            continue; /* the word itself is no suggestion */
        if (len >= 3 && strncmp(candidates[i], word, len) == 0 && d > limit)
            d = limit; /* a prefix of the candidate */
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best;
}

char *suggest_unknown(const char *kind, const char *kinds, const char *name, const char *const *names, size_t n)
{
    const char *near = suggest_closest(name, names, n);
    struct strbuf sb = {0};
    sb_printf(&sb, "no %s named '%s'; ", kind, name);
    if (near)
        sb_printf(&sb, "did you mean '%s'?", near);
    else {
        sb_printf(&sb, "%s: ", kinds);
        sb_put_name_list(&sb, names, n, 12);
    }
    return sb_detach(&sb);
}

/* How near a candidate is, for ordering: one that holds the word (case
 * ignored) before any that does not, then by edit distance. */
struct near {
    const char *s;
    int holds;
    size_t d;
    size_t at;
};

static int by_nearness(const void *x, const void *y)
{
    const struct near *a = x, *b = y;
    if (a->holds != b->holds)
        return a->holds ? -1 : 1;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

static int holds_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; n && *s; s++)
        if (strncasecmp(s, word, n) == 0)
            return 1;
    return 0;
}

size_t suggest_nearest(const char *word, const char *const *candidates, size_t n, const char **out, size_t max)
{
    struct near *v = calloc(n + 1, sizeof *v);
    if (!v) {
        size_t k = n < max ? n : max;
        for (size_t i = 0; i < k; i++)
            out[i] = candidates[i];
        return k;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (struct near){candidates[i], holds_word(candidates[i], word), suggest_distance(word, candidates[i]), i};
    qsort(v, n, sizeof *v, by_nearness);
    size_t k = n < max ? n : max;
    for (size_t i = 0; i < k; i++)
        out[i] = v[i].s;
    free(v);
    return k;
}
