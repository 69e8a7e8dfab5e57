/* Small text helpers shared by the commands, the store and saved queries. */
#include "util/text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "util/strbuf.h"

void time_now_rfc3339(char out[TIME_TEXT_MAX], int millis)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    int n = (int)strftime(out, TIME_TEXT_MAX, "%Y-%m-%dT%H:%M:%S", &tm);
    if (millis)
        snprintf(out + n, (size_t)(TIME_TEXT_MAX - n), ".%03dZ", (int)(ts.tv_nsec / 1000000));
    else
        snprintf(out + n, (size_t)(TIME_TEXT_MAX - n), "Z");
}

int sql_is_blank(const char *s)
{
    while (*s) {
        if (strchr(" \t\r\n;", *s))
            s++;
        else if (s[0] == '-' && s[1] == '-')
            while (*s && *s != '\n')
                s++;
        else if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            if (!e)
                return 1;
            s = e + 2;
        } else
            return 0;
    }
    return 1;
}

char *file_read_all(const char *path, size_t *len, char **err)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        bd_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct strbuf sb = {0};
    char buf[65536];
    size_t n;
    int nomem = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (sb_append(&sb, buf, n)) {
            nomem = 1;
            break;
        }
    int bad = ferror(f);
    if (!is_stdin)
        fclose(f);
    if (bad || nomem) {
        sb_free(&sb);
        bd_fail(err, "%s: %s", path, nomem ? "out of memory reading it" : "read error");
        return NULL;
    }
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}
