#include "ingest/core/paths.h"

#include <string.h>

int path_join_inside(const char *dir, const char *path, struct strbuf *out)
{
    sb_reset(out);
    if (path[0] == '/')
        return -1;
    int rc = 0;
    for (int part = dir && *dir ? 0 : 1; part < 2 && rc == 0; part++) {
        const char *s = part ? path : dir;
        while (*s && rc == 0) {
            const char *slash = strchr(s, '/');
            size_t n = slash ? (size_t)(slash - s) : strlen(s);
            if (n == 0 || (n == 1 && s[0] == '.')) {
                /* nothing: "a//b", "./a" */
            } else if (n == 2 && s[0] == '.' && s[1] == '.') {
                if (!out->len) {
                    rc = -1;
                } else {
                    size_t k = out->len;
                    while (k > 0 && out->buf[k - 1] != '/')
                        k--;
                    out->len = k ? k - 1 : 0;
                    out->buf[out->len] = 0;
                }
            } else if ((out->len && sb_putc(out, '/')) || sb_append(out, s, n)) {
                rc = -1;
            }
            s += n + (slash != NULL);
        }
    }
    return rc == 0 && out->len ? 0 : -1;
}

int path_has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}
