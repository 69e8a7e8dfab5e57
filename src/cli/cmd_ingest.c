#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ingest/ingest.h"
#include "util/xalloc.h"

/* ---- the command line ---- */

#define INGEST_MAX_ATTRS 256

struct ingest_args {
    int quiet, replace, append;
    size_t max_line_bytes, max_bytes, max_members, max_series, max_ratio;
    const char *plan, *run, *host;
    const char *harness_format, *source, *started_at, *variant;
    int position, block; /* 0: not given */
    const char *attrs[INGEST_MAX_ATTRS];
    size_t n_attrs;
};
#define A(m) offsetof(struct ingest_args, m)

/* A name or text the run or its values keep: the store's text is UTF-8
 * without NUL. */
static int parse_text(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    char what[96];
    if (ingest_text_check(arg, what, sizeof what))
        return bd_fail(err, "%s", what);
    *(const char **)dst = arg;
    return 0;
}

static int parse_harness_format(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    if (!ingest_harness_known(arg))
        return bd_fail(err, "expected one of %s", ingest_harness_list());
    *(const char **)dst = arg;
    return 0;
}

static int parse_started_at(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    if (!ingest_time_valid(arg))
        return bd_fail(err, "expected an RFC 3339 date-time such as 2026-10-21T03:57:00Z");
    *(const char **)dst = arg;
    return 0;
}

/* KEY=VALUE into attrs (repeatable, each key once). */
static int parse_attr(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    struct ingest_args *a = (struct ingest_args *)((char *)dst - o->offset);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return bd_fail(err, "expected KEY=VALUE");
    size_t klen = (size_t)(eq - arg);
    char what[96];
    if (ingest_text_check(arg, what, sizeof what))
        return bd_fail(err, "%s", what);
    for (size_t i = 0; i < a->n_attrs; i++)
        if (strncmp(a->attrs[i], arg, klen + 1) == 0)
            return bd_fail(err, "%.*s is given twice (give each attribute once)", (int)klen, arg);
    if (a->n_attrs == INGEST_MAX_ATTRS) {
        bd_fail(err, "more than %d --attr options", INGEST_MAX_ATTRS);
        return -2;
    }
    a->attrs[a->n_attrs++] = arg;
    return 0;
}

/* A count with cli_opt_bytes' suffixes (--max-members 100K). */
static int parse_count(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    if (cli_opt_bytes(o, arg, dst, err))
        return bd_fail(err, "expected a number >= 1, with an optional suffix K, M, G or T");
    return 0;
}

static const struct cli_opt ingest_opts[] = {
    {NULL, 0, NULL, "The run harness FILEs load into (--plan, --run and --host go together):", NULL, 0, 0, 0},
    {"plan", 0, "P", "the run's plan", parse_text, A(plan), 0, 0},
    {"run", 0, "R", "the run's name", parse_text, A(run), 0, 0},
    {"host", 0, "H", "the host it ran on (default: the one the files name,\nGoogle Benchmark's context.host_name)",
     parse_text, A(host), 0, 0},
    {"append", 0, NULL, "add the files to run R, already stored", cli_opt_flag, A(append), 0, 0},
    {"format", 0, "FORMAT", "read every FILE as FORMAT (docs/formats.md; an\nunknown name lists them)",
     parse_harness_format, A(harness_format), 0, 0},
    {"source", 0, "REV", "the measured revision", parse_text, A(source), 0, 0},
    {"started-at", 0, "TIME", "when the run started (RFC 3339, e.g.\n2026-10-21T03:57:00Z)", parse_started_at,
     A(started_at), 0, 0},
    {"position", 0, "N", "the run's position on its host (an integer >= 1)", cli_opt_int, A(position), 1, INT_MAX},
    {"attr", 0, "KEY=VALUE", "a run attribute (repeatable)", parse_attr, A(attrs), 0, 0},
    {"variant", 0, "V", "the variant the values measure (default 'default')", parse_text, A(variant), 0, 0},
    {"block", 0, "N", "the block they belong to (default 1)", cli_opt_int, A(block), 1, INT_MAX},
    {NULL, 0, NULL, "\nOptions:", NULL, 0, 0, 0},
    {"quiet", 'q', NULL, "no progress line, notices or summary (errors and\nwarnings stay)", cli_opt_flag, A(quiet),
     0, 0},
    {"replace", 'r', NULL, "replace runs already stored from other archives", cli_opt_flag, A(replace), 0, 0},
    {"max-line-bytes", 0, "SIZE", "refuse lines longer than SIZE (default 64M)", cli_opt_bytes, A(max_line_bytes), 0,
     0},
    {"max-bytes", 0, "SIZE", "refuse an archive that gives more than SIZE bytes\nwhen read (default 64G)",
     cli_opt_bytes, A(max_bytes), 0, 0},
    {"max-members", 0, "N", "refuse a tar or zip of more than N files (default\n100000)", parse_count,
     A(max_members), 0, 0},
    {"max-series", 0, "N", "refuse an archive of more than N series (default\n100000)", parse_count, A(max_series), 0,
     0},
    {"max-ratio", 0, "N", "refuse an archive whose decompression gives more\nthan N bytes per byte read, past the "
                          "first 64M\n(default 1000); SIZE and N take a suffix K, M, G\nor T (powers of 1024)",
     parse_count, A(max_ratio), 0, 0},
    {0},
};

const struct cli_spec spec_ingest = {
    .name = "ingest",
    .store = 1,
    .synopsis = (const char *const[]){"ingest [OPTIONS] ARCHIVE...",
                                      "ingest --plan P --run R --host H [OPTIONS] FILE...", NULL},
    .about = "Load run archives into the store. An ARCHIVE is a benchdb-run/1 stream\n"
             "(JSON Lines, optionally zstd-, gzip-, xz- or bzip2-compressed; see\n"
             "docs/archive-format.md) or a tar or zip holding such streams and the\n"
             "harness files their results records name; '-' reads a stream from\n"
             "standard input. What a file is comes from its content, never its name.\n"
             "A directory is searched recursively (names starting with '.' left out)\n"
             "and every archive in it is loaded, in byte order of the paths.\n"
             "\n"
             "With --plan, --run and --host, the FILEs are harness output (JMH, Google\n"
             "Benchmark, hyperfine, pyperf, go test -bench; docs/formats.md), each\n"
             "recognised by its content unless --format names the format for all, and\n"
             "load together as one archive into run R of plan P on host H: all or\n"
             "nothing. A directory gives every harness file in it; '-' reads one from\n"
             "standard input. The values go to block N (default 1) of variant V\n"
             "(default 'default'); the run's start time and attributes come from the\n"
             "files where they record them, --source, --started-at, --position and\n"
             "--attr from the command line. Without --host, the host is the one the\n"
             "files name (Google Benchmark's context.host_name).\n"
             "\n"
             "Each archive is one transaction: an archive with any error stores\n"
             "nothing, and the error names its file, line and field; the other\n"
             "archives still load. An archive already stored is skipped: the same\n"
             "bytes, or the same harness files read as the same formats into the same\n"
             "run. A file that another process is storing is waited for, however\n"
             "long, then skipped. Other archives wait for another process's write lock\n"
             "up to the busy timeout (60 s, or $BENCHDB_BUSY_TIMEOUT seconds), then\n"
             "fail. A run already stored is refused; --append adds the files to it\n"
             "(refusing any series it already has), --replace replaces what the\n"
             "archive that stored it wrote into it.\n",
    .opts = ingest_opts,
    .more = "The result, one summary line (archives loaded, skipped and failed; runs,\n"
            "measured values as 'list' counts them and warmups apart; seconds), goes\n"
            "to stdout, as delete's counts do. The progress\n"
            "line (on a terminal; while waiting for another process, what for),\n"
            "notices, warnings and errors go to stderr.\n"
            "\n"
            "Exit status: 0 when every archive was loaded or skipped, 1 when any\n"
            "failed, 2 on a usage error.\n"
            "\n"
            "Examples:\n"
            "  benchdb ingest runs/ extra/vm-a-1.jsonl.zst\n"
            "  benchdb ingest --plan pr-42 --run base --host ci-1 --source 844fd45 \\\n"
            "      build/results/\n"
            "  go test -bench . |\n"
            "      benchdb ingest --plan pr-42 --run head --host ci-1 --format go-bench -\n",
    .max_args = -1,
};

/* ---- the list of files ---- */

struct item {
    char *path; /* as it will be opened */
    char *name; /* files mode: the name it is stored under */
};

struct items {
    struct item *v;
    size_t n, cap;
};

static int items_add(struct items *l, const char *path, const char *name)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        struct item *nv = xreallocarray(l->v, ncap, sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n].path = xstrdup(path);
    l->v[l->n].name = name ? xstrdup(name) : NULL;
    if (!l->v[l->n].path || (name && !l->v[l->n].name))
        return -1;
    l->n++;
    return 0;
}

static void items_free(struct items *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].path);
        free(l->v[i].name);
    }
    free(l->v);
}

static int cmp_items(const void *a, const void *b)
{
    return strcmp(((const struct item *)a)->path, ((const struct item *)b)->path);
}

#define WALK_NOTES 10

/* What a walk found that it left out. */
struct walk {
    int files_mode, quiet;
    size_t taken, harness, other;
    char first_harness[512];
    struct source_kept *kept; /* zstd contexts, one for all the files classified */
};

/* Adds what under dir the mode loads (archives, or harness files named by
 * their path below top); symbolic links to directories are not followed,
 * names starting with '.' left out. */
static int walk(const char *top, const char *dir, struct items *out, struct walk *w)
{
    DIR *d = opendir(dir);
    if (!d) {
        bd_error("%s: cannot read directory: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    size_t dl = strlen(dir), tl = strlen(top);
    const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = bd_strdupf("%s%s%s", dir, sep, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = walk(top, p, out, w);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            enum ingest_kind kind;
            const char *harness = NULL;
            char *err = NULL;
            if (ingest_classify(p, w->kept, &kind, &harness, &err)) {
                bd_error("%s: %s", p, err);
                free(err);
                rc = -1;
            } else if (kind == INGEST_KIND_COMPANION || (kind == INGEST_KIND_HARNESS && !ingest_walk_takes(p, harness))) {
                /* comes along with the file beside it, or a copy of an earlier run */
            } else if (kind == (w->files_mode ? INGEST_KIND_HARNESS : INGEST_KIND_ARCHIVE)) {
                const char *rel = p + tl + (top[tl - 1] == '/' ? 0 : 1);
                rc = items_add(out, p, w->files_mode ? rel : NULL);
                w->taken++;
            } else if (kind == INGEST_KIND_HARNESS) {
                if (w->harness++ == 0)
                    snprintf(w->first_harness, sizeof w->first_harness, "%s (%s)", p, harness);
            } else {
                w->other++;
                /* a harness's own directory holds many other files
                 * (Criterion's reports): the first few are named */
                if (w->files_mode && !w->quiet && w->other <= WALK_NOTES)
                    bd_notice("note: %s: left out (%s)", p,
                              kind == INGEST_KIND_ARCHIVE ? "a run archive carries its own runs"
                                                          : "not a format benchdb reads");
            }
        }
        free(p);
    }
    closedir(d);
    return rc;
}

/* Adds a directory's files; a directory without any is an error. */
static int add_directory(const char *dir, struct items *out, int files_mode, int quiet)
{
    struct walk w = {files_mode, quiet, 0, 0, 0, "", ingest_kept_new()};
    size_t from = out->n;
    int rc = walk(dir, dir, out, &w);
    ingest_kept_free(w.kept);
    if (rc)
        return -1;
    if (files_mode && !quiet && w.other > WALK_NOTES)
        bd_notice("note: %s: %zu more files left out (not a format benchdb reads, or run archives)", dir,
                  w.other - WALK_NOTES);
    if (out->n > from)
        qsort(out->v + from, out->n - from, sizeof *out->v, cmp_items);
    if (w.taken)
        return 0;
    if (w.harness)
        bd_error("%s: holds harness output (%zu file%s, e.g. %s) but no run archive: load it into a run with "
                 "--plan, --run and --host",
                 dir, w.harness, w.harness == 1 ? "" : "s", w.first_harness);
    else if (files_mode)
        bd_error("%s: no file in a format benchdb reads here (harness output: %s)", dir, ingest_harness_list());
    else
        bd_error("%s: no file in a format benchdb reads here (benchdb-run/1 streams, tar or zip archives)", dir);
    return -1;
}

int cli_harness_files_under(const char *dir, char ***paths, size_t *n)
{
    struct items l = {0};
    int rc = add_directory(dir, &l, 1, 1);
    *paths = rc ? NULL : xcalloc(l.n + 1, sizeof **paths);
    *n = *paths ? l.n : 0;
    for (size_t i = 0; i < l.n; i++) {
        if (*paths)
            (*paths)[i] = l.v[i].path; /* taken */
        else
            free(l.v[i].path);
        free(l.v[i].name);
    }
    free(l.v);
    return *paths ? 0 : -1;
}

/* The last n path components of p ("." and ".." left out), or NULL when
 * it has fewer. */
static char *last_components(const char *p, int n)
{
    const char *comp[64];
    size_t len[64];
    int k = 0;
    for (const char *s = p; *s;) {
        const char *slash = strchr(s, '/');
        size_t l = slash ? (size_t)(slash - s) : strlen(s);
        if (l && !(l == 1 && s[0] == '.') && !(l == 2 && s[0] == '.' && s[1] == '.') && k < 64) {
            comp[k] = s;
            len[k++] = l;
        }
        s += l + (slash != NULL);
    }
    if (k < n)
        return NULL;
    struct strbuf sb = {0};
    for (int i = k - n; i < k; i++)
        if ((i > k - n && sb_putc(&sb, '/')) || sb_append(&sb, comp[i], len[i])) {
            sb_free(&sb);
            return NULL;
        }
    return xsb_detach(&sb);
}

static int cmp_names(const void *a, const void *b)
{
    const char *x = (*(struct item *const *)a)->name, *y = (*(struct item *const *)b)->name;
    return !x || !y ? (x != NULL) - (y != NULL) : strcmp(x, y);
}

/* Files given by name are stored under their base name; two that share
 * one take as many of their directories as tell them apart. Names equal
 * to others are found next to each other in sorted order (a directory may
 * give 100,000 files: no comparison of every pair). -1: out of memory. */
static int name_files(struct items *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].name)
            l->v[i].name = strcmp(l->v[i].path, "-") == 0 ? xstrdup("stdin") : last_components(l->v[i].path, 1);
    struct item **by = xmalloc((l->n ? l->n : 1) * sizeof *by);
    if (!by)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        by[i] = &l->v[i];
    for (int depth = 2; depth < 64; depth++) {
        int changed = 0;
        qsort(by, l->n, sizeof *by, cmp_names);
        for (size_t i = 0; i < l->n;) {
            size_t j = i + 1;
            while (j < l->n && by[i]->name && by[j]->name && strcmp(by[i]->name, by[j]->name) == 0)
                j++;
            for (size_t k = i; j - i > 1 && k < j; k++) {
                char *longer = last_components(by[k]->path, depth);
                if (longer) {
                    free(by[k]->name);
                    by[k]->name = longer;
                    changed = 1;
                }
            }
            i = j;
        }
        if (!changed)
            break;
    }
    free(by);
    return 0;
}

/* ---- progress ---- */

struct progress {
    int on;
    int shown;
    size_t done, total;         /* archives */
    uint64_t done_bytes, bytes; /* bytes of the archives before the current one; of all (0: unknown) */
    double t0, last;
    struct ingester *g;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The last line: the values as `list` counts them (measured), the warmups
 * beside them, so that the two commands' numbers agree. */
static void print_summary(const struct ingest_totals *t, double seconds)
{
    uint64_t values = t->samples - t->warmups;
    printf("ingest: %" PRIu64 " archive%s loaded, %" PRIu64 " skipped, %" PRIu64 " failed; %" PRIu64 " run%s, %" PRIu64
           " value%s",
           t->loaded, t->loaded == 1 ? "" : "s", t->skipped, t->failed, t->runs, t->runs == 1 ? "" : "s", values,
           values == 1 ? "" : "s");
    if (t->warmups)
        printf(" (and %" PRIu64 " warmup%s)", t->warmups, t->warmups == 1 ? "" : "s");
    printf("; %.2f s\n", seconds);
}

static void progress_clear(void *arg)
{
    struct progress *p = arg;
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}

static void progress_show(struct progress *p, int force)
{
    double t = now();
    if (!p->on || (!force && t - p->last < 0.25))
        return;
    p->last = t;
    uint64_t cur = 0, rows = 0;
    if (p->g)
        ingester_live(p->g, &cur, &rows);
    double secs = t - p->t0, done = (double)(p->done_bytes + cur);
    double rate = secs > 0 ? done / secs : 0;
    char eta[48] = "";
    if (p->bytes && rate > 0 && done <= (double)p->bytes)
        snprintf(eta, sizeof eta, ", ETA %.0f s", ((double)p->bytes - done) / rate);
    fprintf(stderr, "\r\033[Kingest: %zu/%zu archives, %" PRIu64 " rows, %.1f MB/s%s", p->done, p->total, rows,
            rate / 1e6, eta);
    fflush(stderr);
    p->shown = 1;
}

static void progress_tick(void *arg)
{
    progress_show(arg, 0);
}

/* Instead of the progress line while another process stores the same
 * archive (the notice above it names the archive). */
static void progress_waiting(void *arg, long pid, double seconds)
{
    struct progress *p = arg;
    double t = now();
    if (!p->on || seconds < 0 || (p->shown && t - p->last < 0.25))
        return;
    p->last = t;
    char who[48] = "another process";
    if (pid)
        snprintf(who, sizeof who, "process %ld", pid);
    fprintf(stderr, "\r\033[Kingest: waiting %.0f s for %s to finish storing the same archive", seconds, who);
    fflush(stderr);
    p->shown = 1;
}

/* ---- the command ---- */

/* The first option given that goes with --plan, --run and --host only. */
/* The option of the run harness files load into given an empty name, or
 * NULL: the option's fault, said before anything is read (it was said as
 * "FILE: run.plan: expected a non-empty string", after reading FILE). */
static const char *empty_name(const struct ingest_run *run)
{
    return !*run->plan ? "--plan" : !*run->run ? "--run" : !*run->host ? "--host" : !*run->variant ? "--variant" : NULL;
}

static const char *run_option(const struct ingest_args *a)
{
    return a->append           ? "--append"
           : a->harness_format ? "--format"
           : a->source         ? "--source"
           : a->started_at     ? "--started-at"
           : a->position       ? "--position"
           : a->n_attrs        ? "--attr"
           : a->variant        ? "--variant"
           : a->block          ? "--block"
                               : NULL;
}

/* Without --host: the host the files name (Google Benchmark's
 * context.host_name), the same in each that names one. EXIT_OK with
 * *host malloc'd, or EXIT_USAGE after the error when two name different
 * hosts or none names one (--host is then missing). Directories and
 * standard input are not looked into. */
static int host_of_files(int n, char **paths, char **host)
{
    *host = NULL;
    const char *from = NULL;
    for (int i = 0; i < n; i++) {
        struct stat st;
        char *h = NULL, *err = NULL;
        if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode) ||
            ingest_file_host(paths[i], &h, &err) != 0 || !h) {
            free(err);
            continue;
        }
        if (*host && strcmp(*host, h) != 0) {
            int rc = bd_usage_error("ingest", "ingest: %s names host '%s' and %s host '%s': give --host", from, *host,
                                    paths[i], h);
            free(h);
            free(*host);
            *host = NULL;
            return rc;
        }
        if (*host)
            free(h);
        else {
            *host = h;
            from = paths[i];
        }
    }
    if (!*host)
        return bd_usage_error("ingest", "ingest: --host H is missing, and no file given names its host (Google "
                                        "Benchmark's context.host_name; directories and '-' are not looked into)");
    return EXIT_OK;
}

/* The items of the command line: files, "-" once, directories'
 * contents. A name that cannot be opened stays in the list: the loader
 * reports it. EXIT_OK, EXIT_FAIL when a directory could not be read
 * (the rest listed), -1 when memory ran out (said; list freed). */
static int list_items(int n, char **args, int files_mode, int quiet, struct items *list)
{
    int rc = EXIT_OK, stdin_seen = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(args[i], "-") == 0) {
            if (stdin_seen++)
                continue;
        } else if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (add_directory(args[i], list, files_mode, quiet))
                rc = EXIT_FAIL;
            continue;
        }
        if (items_add(list, args[i], NULL)) {
            bd_error("out of memory");
            items_free(list);
            return -1;
        }
    }
    return rc;
}

/* The bytes the items hold, for the progress's ETA; 0 when unknown
 * (standard input, or anything but regular files). */
static uint64_t items_bytes(const struct items *list)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < list->n; i++) {
        struct stat st;
        if (strcmp(list->v[i].path, "-") == 0 || stat(list->v[i].path, &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
        bytes += (uint64_t)st.st_size;
    }
    return bytes;
}

/* The planner's statistics for what was stored, now rather than at
 * autovacuum's next round (a gate run right after the ingest plans from
 * them); nothing on SQLite. The archives are stored either way. */
static void refresh_statistics(struct db *db)
{
    char *err = NULL;
    if (store_refresh_statistics(db, &err) < 0)
        bd_warning("ingest: the server's statistics of the tables were not refreshed (its autovacuum will): %s",
                   err ? err : "out of memory");
    free(err);
}

/* The command; *named_host: the host the files named, freed by the caller. */
/* Each archive of the list in turn, on its own transaction. A lost
 * connection to the server (stopped, restarted, the session terminated)
 * stops the rest, which would each fail with "no connection to the
 * server" (a line and a note for every archive left); it says how many
 * were not tried. EXIT_OK, or EXIT_FAIL when any failed. */
static int ingest_archives(struct ingester *g, struct db *db, const struct items *list, struct progress *pr)
{
    int rc = EXIT_OK;
    for (size_t i = 0; i < list->n; i++) {
        ingester_next(g, i + 1 < list->n ? list->v[i + 1].path : NULL);
        if (ingester_archive(g, list->v[i].path) == INGEST_FAILED)
            rc = EXIT_FAIL;
        struct stat st;
        pr->done++;
        if (strcmp(list->v[i].path, "-") != 0 && stat(list->v[i].path, &st) == 0)
            pr->done_bytes += (uint64_t)st.st_size;
        progress_show(pr, 0);
        if (rc != EXIT_OK && db_lost(db) && i + 1 < list->n) {
            progress_clear(pr);
            bd_error("ingest: the connection to the store was lost: %zu archive%s not tried (the first: %s); run the "
                     "ingest again once the server is back: the archives stored are skipped",
                     list->n - i - 1, list->n - i - 1 == 1 ? "" : "s", list->v[i + 1].path);
            break;
        }
    }
    return rc;
}

static int ingest_main(struct cli *cli, int argc, char **argv, char **named_host)
{
    struct ingest_args a = {.max_line_bytes = INGEST_DEFAULT_MAX_LINE,
                            .max_bytes = INGEST_DEFAULT_MAX_BYTES,
                            .max_members = INGEST_DEFAULT_MAX_MEMBERS,
                            .max_series = INGEST_DEFAULT_MAX_SERIES,
                            .max_ratio = INGEST_DEFAULT_MAX_RATIO};
    int first;
    if (cli_parse(&spec_ingest, argc, argv, &a, &first))
        return EXIT_USAGE;
    struct ingest_options opt = {.max_line_bytes = a.max_line_bytes, .max_bytes = a.max_bytes, .replace = a.replace,
                                 .notices = a.quiet ? INGEST_NOTICES_QUIET : 0, .max_members = a.max_members,
                                 .max_series = a.max_series, .max_ratio = a.max_ratio};
    struct ingest_run run = {a.plan, a.run, a.host, a.source, a.started_at, a.position, a.attrs, a.n_attrs,
                             a.variant ? a.variant : "default", a.block ? a.block : 1, a.harness_format, a.append, NULL};
    int files_mode = run.plan || run.run || run.host;
    if (first >= argc)
        return bd_usage_error("ingest", "ingest: no %s given (files, directories or '-')",
                              files_mode ? "harness file" : "archive");
    if (files_mode && run.plan && run.run && !run.host) {
        int hrc = host_of_files(argc - first, argv + first, named_host);
        if (hrc != EXIT_OK)
            return hrc;
        run.host = *named_host;
    }
    if (files_mode && (!run.plan || !run.run || !run.host))
        return bd_usage_error("ingest", "ingest: --plan, --run and --host go together (the run harness files load into)");
    if (!files_mode && run_option(&a))
        return bd_usage_error("ingest", "ingest: %s goes with --plan, --run and --host (a run archive names its own "
                                        "runs)", run_option(&a));
    if (run.append && opt.replace)
        return bd_usage_error("ingest", "ingest: --append and --replace do not go together");
    const char *empty = files_mode ? empty_name(&run) : NULL;
    if (empty)
        return bd_usage_error("ingest", "ingest: %s '': expected a name (not empty)", empty);

    struct items list = {0};
    int rc = list_items(argc - first, argv + first, files_mode, a.quiet, &list);
    if (rc < 0)
        return EXIT_FAIL;

    struct db *db = NULL;
    if ((files_mode && list.n == 0) || cli_connect_store(cli, STORE_WRITE, &db)) {
        items_free(&list);
        return EXIT_FAIL;
    }
    char *err = NULL;
    if (store_may_write(db, &err)) { /* said once, before any file is read */
        bd_error("ingest: %s; nothing was read or written", err ? err : "out of memory");
        free(err);
        db_close(db);
        items_free(&list);
        return EXIT_FAIL;
    }
    struct progress pr = {0};
    pr.on = !a.quiet && isatty(2);
    pr.total = files_mode ? 1 : list.n;
    pr.t0 = pr.last = now();
    pr.bytes = items_bytes(&list);
    struct ingest_hooks hooks = {progress_clear, progress_tick, &pr, progress_waiting};
    struct ingester *g = ingester_open(db, &opt, &hooks, &err);
    if (!g) {
        bd_error("ingest: %s", err);
        free(err);
        db_close(db);
        items_free(&list);
        return EXIT_FAIL;
    }
    pr.g = g;
    if (files_mode) {
        struct ingest_file *files = name_files(&list) ? NULL : xcalloc(list.n, sizeof *files);
        struct strbuf shown = {0};
        for (int i = first; i < argc; i++)
            sb_printf(&shown, "%s%s", i > first ? " " : "", argv[i]);
        if (!files || sb_failed(&shown) || !shown.buf) {
            bd_error("out of memory");
            rc = EXIT_FAIL;
        } else {
            for (size_t i = 0; i < list.n; i++)
                files[i] = (struct ingest_file){list.v[i].path, list.v[i].name ? list.v[i].name : list.v[i].path};
            if (ingester_files(g, &run, files, list.n, shown.buf) == INGEST_FAILED)
                rc = EXIT_FAIL;
        }
        free(files);
        sb_free(&shown);
        pr.done = 1;
    }
    if (!files_mode && ingest_archives(g, db, &list, &pr) != EXIT_OK)
        rc = EXIT_FAIL;
    progress_clear(&pr);
    const struct ingest_totals *t = ingester_totals(g);
    if (t->loaded > 0 && !db_lost(db))
        refresh_statistics(db);
    if (!a.quiet)
        print_summary(t, now() - pr.t0);
    ingester_close(g);
    db_close(db);
    items_free(&list);
    return rc;
}

int cmd_ingest(struct cli *cli, int argc, char **argv)
{
    char *named_host = NULL;
    int rc = ingest_main(cli, argc, argv, &named_host);
    free(named_host);
    return rc;
}
