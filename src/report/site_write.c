/* Writing a site incrementally: a page is written only when its bytes
 * differ from the file already there (each whole or not at all, as
 * `report -o` writes), and the pages an earlier run made that this one no
 * longer makes are removed; DIR/.benchdb-site lists the pages of the last
 * run, so that no other file of DIR is ever touched. DIR is the user's
 * (a link to a directory is followed); what is inside it is site's own
 * names: a link at a page's name is replaced, never written through, and
 * h/ or e/ that is a link is refused (pages written and removed there
 * would land in whatever directory it names). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/site.h"
#include "util/diag.h"
#include "util/outfile.h"
#include "util/xalloc.h"

#define MANIFEST ".benchdb-site"

static int make_dir(const char *path, int own, char **err)
{
    struct stat st;
    if (mkdir(path, 0777) == 0)
        return 0;
    if (own && errno == EEXIST && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return bd_fail(err, "site: %s is a symbolic link: the site's pages go into a directory of its own there, "
                            "never through a link (remove the link)",
                       path);
    if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    return bd_fail(err, "site: cannot make the directory %s: %s", path,
                   errno == EEXIST ? "a file of that name is there" : strerror(errno));
}

int site_writer_open(struct site_writer *w, const char *dir, char **err)
{
    memset(w, 0, sizeof *w);
    if (!(w->dir = xstrdup(dir)))
        return bd_fail(err, "out of memory");
    const char *sub[] = {"h", "e"};
    if (make_dir(dir, 0, err))
        return -1;
    for (int k = 0; k < 2; k++) {
        char *p = bd_strdupf("%s/%s", dir, sub[k]);
        int rc = p ? make_dir(p, 1, err) : bd_fail(err, "out of memory");
        free(p);
        if (rc)
            return -1;
    }
    w->progress = isatty(STDERR_FILENO);
    return 0;
}

/* Whether the file at path (not a link) holds exactly n bytes of data. */
static int same_bytes(const char *path, const char *data, size_t n)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != n)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[65536];
    size_t at = 0, got;
    int same = 1;
    while (same && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        same = at + got <= n && memcmp(buf, data + at, got) == 0;
        at += got;
    }
    same = same && at == n && !ferror(f);
    fclose(f);
    return same;
}

static void progress(struct site_writer *w, int done)
{
    static time_t last;
    time_t now = time(NULL);
    if (!w->progress || (!done && now == last))
        return;
    last = now;
    fprintf(stderr, "\rsite: %zu of %zu pages (%zu written)%s", w->nmade, w->total, w->written, done ? "\n" : "");
    fflush(stderr);
}

int site_put(struct site_writer *w, const char *page, const struct strbuf *content, char **err)
{
    if (content->failed)
        return bd_fail(err, "out of memory");
    if (w->nmade == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 256;
        char **grown = xreallocarray(w->made, cap, sizeof *grown);
        if (!grown)
            return bd_fail(err, "out of memory");
        w->made = grown;
        w->cap = cap;
    }
    char *path = bd_strdupf("%s/%s", w->dir, page);
    if (!path || !(w->made[w->nmade] = xstrdup(page))) {
        free(path);
        return bd_fail(err, "out of memory");
    }
    w->nmade++;
    int rc = 0;
    const char *data = content->buf ? content->buf : "";
    if (same_bytes(path, data, content->len)) {
        w->unchanged++;
    } else {
        char *e2 = NULL;
        rc = outfile_write_own(path, data, content->len, &e2);
        if (rc)
            bd_fail(err, "site: %s", e2);
        free(e2);
        w->written += rc == 0;
    }
    free(path);
    progress(w, 0);
    return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Whether this run made page (w->made sorted). */
static int made_now(const struct site_writer *w, const char *page)
{
    return bsearch(&page, w->made, w->nmade, sizeof *w->made, cmp_str) != NULL;
}

/* Only a name this writer makes: h/... or e/... or index.html, no "..". */
static int ours(const char *page)
{
    return !strstr(page, "..") && !strchr(page, '\\') &&
           (strcmp(page, "index.html") == 0 || strncmp(page, "h/", 2) == 0 || strncmp(page, "e/", 2) == 0);
}

int site_writer_close(struct site_writer *w, char **err)
{
    progress(w, 1);
    qsort(w->made, w->nmade, sizeof *w->made, cmp_str);
    char *manifest = bd_strdupf("%s/" MANIFEST, w->dir);
    if (!manifest)
        return bd_fail(err, "out of memory");
    struct stat st; /* the list this writer made: a regular file, not what a link names */
    FILE *f = lstat(manifest, &st) == 0 && S_ISREG(st.st_mode) ? fopen(manifest, "r") : NULL;
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line || !ours(line) || made_now(w, line))
            continue;
        char *p = bd_strdupf("%s/%s", w->dir, line);
        if (p && unlink(p) == 0)
            w->removed++;
        free(p);
    }
    if (f)
        fclose(f);
    struct strbuf sb = {0};
    sb_puts(&sb, "# the pages 'benchdb site' made here last (it removes those it no longer makes)\n");
    for (size_t i = 0; i < w->nmade; i++)
        sb_printf(&sb, "%s\n", w->made[i]);
    char *e2 = NULL;
    int rc = sb.failed ? bd_fail(err, "out of memory")
             : same_bytes(manifest, sb.buf, sb.len) ? 0
             : outfile_write_own(manifest, sb.buf, sb.len, &e2) ? bd_fail(err, "site: %s", e2) : 0;
    free(e2);
    sb_free(&sb);
    free(manifest);
    return rc;
}

void site_writer_free(struct site_writer *w)
{
    for (size_t i = 0; i < w->nmade; i++)
        free(w->made[i]);
    free(w->made);
    free(w->dir);
    memset(w, 0, sizeof *w);
}
