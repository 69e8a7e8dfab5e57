#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ingest/ingest.h"

const char usage_ingest[] =
    "usage: benchdb [--db FILE] ingest [--quiet] [--replace] [--max-line-bytes N] [--max-bytes N]\n"
    "                                  [--max-members N] ARCHIVE...\n"
    "       benchdb [--db FILE] ingest --format FORMAT --plan P --run R --host H [--variant V]\n"
    "                                  [--block N] [--position N] [--attr KEY=VALUE]... FILE\n"
    "\n"
    "Load benchdb-run/1 archives (JSON Lines, optionally zstd-compressed; see\n"
    "docs/archive-format.md) into the store. ARCHIVE is a file, a directory\n"
    "(searched recursively for *.jsonl, *.jsonl.zst, *.tar, *.tar.gz, *.tgz,\n"
    "*.tar.zst, *.tar.xz and *.zip, in byte order of their paths) or '-' for\n"
    "standard input. A tar or zip (recognised by its content) is read with\n"
    "every run stream inside it and the harness files its results records name.\n"
    "\n"
    "With --format, FILE is one harness output file (jmh, google-benchmark,\n"
    "hyperfine, pyperf, go-bench; docs/formats.md) loaded as run R of plan P on\n"
    "host H: its values are block N (default 1) of variant V (default\n"
    "'default').\n"
    "\n"
    "Each archive is one transaction: an archive with any error stores nothing,\n"
    "and the error names its file, line and field; the other archives still\n"
    "load. An archive whose SHA-256 is already stored is skipped. A run (plan,\n"
    "run) already stored from another archive is refused unless --replace.\n"
    "\n"
    "  -q, --quiet              no progress line, notices or summary (errors and warnings stay)\n"
    "  -r, --replace            replace runs already stored from other archives\n"
    "      --max-line-bytes N   refuse lines longer than N bytes (default 64M)\n"
    "      --max-bytes N        refuse archives of more than N bytes after decompression (default 64G)\n"
    "      --max-members N      refuse a tar or zip of more than N files (default 100000)\n"
    "                           (N takes a suffix K, M, G or T: powers of 1024)\n"
    "\n"
    "On a terminal, a progress line is kept on stderr. At the end one summary\n"
    "line goes to stdout. Exit status: 0 when every archive was loaded or\n"
    "skipped, 1 when any failed, 2 on a usage error.\n"
    "\n"
    "Example:\n"
    "  benchdb ingest runs/ extra/vm-a-1.jsonl.zst\n";

/* ---- the archive list ---- */

struct paths {
    char **v;
    size_t n, cap;
};

static int paths_add(struct paths *p, char *s)
{
    if (p->n == p->cap) {
        size_t ncap = p->cap ? 2 * p->cap : 16;
        char **nv = realloc(p->v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        p->v = nv;
        p->cap = ncap;
    }
    p->v[p->n++] = s;
    return 0;
}

static void paths_free(struct paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

static int cmp_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the archives under dir; symbolic links to directories are not
 * followed (no cycles). */
static int walk(const char *dir, struct paths *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        bd_error("%s: cannot read directory: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    size_t dl = strlen(dir);
    const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = bd_strdupf("%s%s%s", dir, sep, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = walk(p, out);
            free(p);
        } else if ((has_suffix(e->d_name, ".jsonl") || has_suffix(e->d_name, ".jsonl.zst") ||
                    has_suffix(e->d_name, ".tar") || has_suffix(e->d_name, ".tar.gz") ||
                    has_suffix(e->d_name, ".tgz") || has_suffix(e->d_name, ".tar.zst") ||
                    has_suffix(e->d_name, ".tar.xz") || has_suffix(e->d_name, ".zip")) &&
                   stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            if (paths_add(out, p)) {
                free(p);
                rc = -1;
            }
        } else {
            free(p);
        }
    }
    closedir(d);
    return rc;
}

static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end || v == 0 || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
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

/* ---- the command ---- */

int cmd_ingest(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"quiet", no_argument, 0, 'q'},
        {"replace", no_argument, 0, 'r'},
        {"max-line-bytes", required_argument, 0, 'L'},
        {"max-bytes", required_argument, 0, 'B'},
        {"max-members", required_argument, 0, 'M'},
        {"format", required_argument, 0, 'F'},
        {"plan", required_argument, 0, 'P'},
        {"run", required_argument, 0, 'R'},
        {"host", required_argument, 0, 'H'},
        {"variant", required_argument, 0, 'V'},
        {"block", required_argument, 0, 'K'},
        {"position", required_argument, 0, 'O'},
        {"attr", required_argument, 0, 'A'},
        {0, 0, 0, 0},
    };
    struct ingest_options opt = {INGEST_DEFAULT_MAX_LINE, INGEST_DEFAULT_MAX_BYTES, 0, 0, INGEST_DEFAULT_MAX_MEMBERS};
    struct ingest_foreign fo = {0};
    fo.variant = "default";
    fo.block = 1;
    char *attrs[256];
    int context_given = 0;
    int c;
    cli_getopt_reset();
    while ((c = cli_getopt("ingest", argc, argv, "qr", opts)) != -1) {
        switch (c) {
        case 'q': opt.quiet = 1; break;
        case 'r': opt.replace = 1; break;
        case 'L':
        case 'B':
            if (parse_size(optarg, c == 'L' ? &opt.max_line_bytes : &opt.max_bytes))
                return bd_usage_error("ingest", "ingest: --%s '%s': expected a positive number of bytes, "
                                                "optionally with K, M, G or T",
                                      c == 'L' ? "max-line-bytes" : "max-bytes", optarg);
            break;
        case 'M':
            if (parse_size(optarg, &opt.max_members))
                return bd_usage_error("ingest", "ingest: --max-members '%s': expected a positive number", optarg);
            break;
        case 'F': fo.format = optarg; break;
        case 'P': fo.plan = optarg; context_given = 1; break;
        case 'R': fo.run = optarg; context_given = 1; break;
        case 'H': fo.host = optarg; context_given = 1; break;
        case 'V': fo.variant = optarg; context_given = 1; break;
        case 'K':
        case 'O': {
            char *end;
            errno = 0;
            long long v = strtoll(optarg, &end, 10);
            if (errno || *end || !*optarg || v < 1)
                return bd_usage_error("ingest", "ingest: --%s '%s': expected an integer >= 1",
                                      c == 'K' ? "block" : "position", optarg);
            *(c == 'K' ? &fo.block : &fo.position) = v;
            context_given = 1;
            break;
        }
        case 'A':
            if (!strchr(optarg, '=') || optarg[0] == '=')
                return bd_usage_error("ingest", "ingest: --attr '%s': expected KEY=VALUE", optarg);
            if (fo.n_attrs == sizeof attrs / sizeof attrs[0])
                return bd_usage_error("ingest", "ingest: more than 256 --attr options");
            attrs[fo.n_attrs++] = optarg;
            context_given = 1;
            break;
        default: return EXIT_USAGE;
        }
    }
    fo.attrs = attrs;
    if (optind >= argc)
        return bd_usage_error("ingest", "ingest: no archive given (files, directories or '-')");
    if (fo.format) {
        if (!ingest_format_known(fo.format))
            return bd_usage_error("ingest", "ingest: --format '%s': expected one of %s", fo.format,
                                  ingest_format_names);
        if (!fo.plan || !fo.run || !fo.host)
            return bd_usage_error("ingest", "ingest: --format needs --plan, --run and --host");
        if (argc - optind != 1 || strcmp(argv[optind], "-") == 0)
            return bd_usage_error("ingest", "ingest: --format takes one FILE (a run's several harness files go "
                                            "into a run stream's results records)");
        struct stat st;
        if (stat(argv[optind], &st) == 0 && !S_ISREG(st.st_mode))
            return bd_usage_error("ingest", "ingest: --format: '%s' is not a regular file", argv[optind]);
    } else if (context_given) {
        return bd_usage_error("ingest", "ingest: --plan, --run, --host, --variant, --block, --position and --attr "
                                        "go with --format");
    }

    /* A name that cannot be opened stays in the list: the loader reports
     * it and counts it as failed. */
    struct paths list = {0};
    int rc = EXIT_OK, stdin_seen = 0;
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-") == 0) {
            if (stdin_seen++)
                continue;
        } else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t from = list.n;
            if (walk(argv[i], &list))
                rc = EXIT_FAIL;
            qsort(list.v + from, list.n - from, sizeof *list.v, cmp_paths);
            if (list.n == from && !opt.quiet)
                bd_notice("%s: no *.jsonl or *.jsonl.zst files here", argv[i]);
            continue;
        }
        if (paths_add(&list, strdup(argv[i]))) {
            bd_error("out of memory");
            paths_free(&list);
            return EXIT_FAIL;
        }
    }

    sqlite3 *db = NULL;
    if (cli_open_store(cli, STORE_WRITE, &db)) {
        paths_free(&list);
        return EXIT_FAIL;
    }
    struct progress pr = {0};
    pr.on = !opt.quiet && isatty(2);
    pr.total = list.n;
    pr.t0 = pr.last = now();
    for (size_t i = 0; i < list.n; i++) {
        struct stat st;
        if (strcmp(list.v[i], "-") == 0 || stat(list.v[i], &st) != 0 || !S_ISREG(st.st_mode)) {
            pr.bytes = 0; /* unknown: no ETA */
            break;
        }
        pr.bytes += (uint64_t)st.st_size;
    }
    struct ingest_hooks hooks = {progress_clear, progress_tick, &pr};
    char *err = NULL;
    struct ingester *g = ingester_open(db, &opt, &hooks, &err);
    if (!g) {
        bd_error("ingest: %s", err);
        free(err);
        store_close(db);
        paths_free(&list);
        return EXIT_FAIL;
    }
    pr.g = g;
    for (size_t i = 0; i < list.n; i++) {
        if (!fo.format)
            ingester_next(g, i + 1 < list.n ? list.v[i + 1] : NULL);
        if ((fo.format ? ingester_foreign(g, list.v[i], &fo) : ingester_archive(g, list.v[i])) == INGEST_FAILED)
            rc = EXIT_FAIL;
        struct stat st;
        pr.done++;
        if (strcmp(list.v[i], "-") != 0 && stat(list.v[i], &st) == 0)
            pr.done_bytes += (uint64_t)st.st_size;
        progress_show(&pr, 0);
    }
    progress_clear(&pr);
    const struct ingest_totals *t = ingester_totals(g);
    if (!opt.quiet)
        printf("ingest: %" PRIu64 " archive%s loaded, %" PRIu64 " skipped, %" PRIu64 " failed; %" PRIu64
               " run%s, %" PRIu64 " samples; %.2f s\n",
               t->loaded, t->loaded == 1 ? "" : "s", t->skipped, t->failed, t->runs, t->runs == 1 ? "" : "s",
               t->samples, now() - pr.t0);
    ingester_close(g);
    store_close(db);
    paths_free(&list);
    return rc;
}
