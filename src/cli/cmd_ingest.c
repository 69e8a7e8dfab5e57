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
    "usage: benchdb [--db FILE] ingest [OPTIONS] ARCHIVE...\n"
    "       benchdb [--db FILE] ingest --plan P --run R --host H [--source REV] [--started-at TIME]\n"
    "                                  [--position N] [--attr KEY=VALUE]... [--variant V] [--block N]\n"
    "                                  [--format FORMAT] [--append] [OPTIONS] FILE... | -\n"
    "\n"
    "Load run archives into the store. An ARCHIVE is a benchdb-run/1 stream\n"
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
    "--attr from the command line.\n"
    "\n"
    "Each archive is one transaction: an archive with any error stores\n"
    "nothing, and the error names its file, line and field; the other\n"
    "archives still load. An archive already stored is skipped: the same\n"
    "bytes, or the same harness files read as the same formats into the same\n"
    "run. A run already stored is refused; --append adds the files to it\n"
    "(refusing any series it already has), --replace replaces what the\n"
    "archive that stored it wrote into it.\n"
    "\n"
    "  -q, --quiet              no progress line, notices or summary (errors and warnings stay)\n"
    "  -r, --replace            replace runs already stored from other archives\n"
    "      --append             add the harness files to the stored run R\n"
    "      --format FORMAT      read every FILE as jmh, google-benchmark, hyperfine, pyperf or go-bench\n"
    "      --source REV         the measured revision\n"
    "      --started-at TIME    when the run started (RFC 3339, e.g. 2026-10-21T03:57:00Z)\n"
    "      --position N         the run's position on its host (an integer >= 1)\n"
    "      --attr KEY=VALUE     a run attribute (repeatable)\n"
    "      --variant V          the variant the values measure (default 'default')\n"
    "      --block N            the block they belong to (default 1)\n"
    "      --max-line-bytes N   refuse lines longer than N bytes (default 64M)\n"
    "      --max-bytes N        refuse archives producing more than N bytes when read (default 64G)\n"
    "      --max-members N      refuse a tar or zip of more than N files (default 100000)\n"
    "                           (N takes a suffix K, M, G or T: powers of 1024)\n"
    "\n"
    "On a terminal, a progress line is kept on stderr. At the end one summary\n"
    "line goes to stdout. Exit status: 0 when every archive was loaded or\n"
    "skipped, 1 when any failed, 2 on a usage error.\n"
    "\n"
    "Examples:\n"
    "  benchdb ingest runs/ extra/vm-a-1.jsonl.zst\n"
    "  benchdb ingest --plan pr-42 --run base --host ci-1 --source 844fd45 build/results/\n"
    "  go test -bench . | benchdb ingest --plan pr-42 --run head --host ci-1 --format go-bench -\n";

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
        struct item *nv = realloc(l->v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n].path = strdup(path);
    l->v[l->n].name = name ? strdup(name) : NULL;
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

/* What a walk found that it left out. */
struct walk {
    int files_mode, quiet;
    size_t taken, harness, other;
    char first_harness[512];
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
            if (ingest_classify(p, &kind, &harness, &err)) {
                bd_error("%s: %s", p, err);
                free(err);
                rc = -1;
            } else if (kind == (w->files_mode ? INGEST_KIND_HARNESS : INGEST_KIND_ARCHIVE)) {
                const char *rel = p + tl + (top[tl - 1] == '/' ? 0 : 1);
                rc = items_add(out, p, w->files_mode ? rel : NULL);
                w->taken++;
            } else if (kind == INGEST_KIND_HARNESS) {
                if (w->harness++ == 0)
                    snprintf(w->first_harness, sizeof w->first_harness, "%s (%s)", p, harness);
            } else {
                w->other++;
                if (w->files_mode && !w->quiet)
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
    struct walk w = {files_mode, quiet, 0, 0, 0, ""};
    size_t from = out->n;
    if (walk(dir, dir, out, &w))
        return -1;
    if (out->n > from)
        qsort(out->v + from, out->n - from, sizeof *out->v, cmp_items);
    if (w.taken)
        return 0;
    if (w.harness)
        bd_error("%s: holds harness output (%zu file%s, e.g. %s) but no run archive: load it into a run with "
                 "--plan, --run and --host",
                 dir, w.harness, w.harness == 1 ? "" : "s", w.first_harness);
    else
        bd_error("%s: no file in a format benchdb reads here%s", dir,
                 files_mode ? " (harness output: jmh, google-benchmark, hyperfine, pyperf, go-bench)"
                            : " (benchdb-run/1 streams, tar or zip archives)");
    return -1;
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
    return sb_detach(&sb);
}

/* Files given by name are stored under their base name; two that share
 * one take as many of their directories as tell them apart. */
static void name_files(struct items *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].name)
            l->v[i].name = strcmp(l->v[i].path, "-") == 0 ? strdup("stdin") : last_components(l->v[i].path, 1);
    for (int depth = 2; depth < 64; depth++) {
        int changed = 0;
        for (size_t i = 0; i < l->n; i++)
            for (size_t j = i + 1; j < l->n; j++) {
                if (!l->v[i].name || !l->v[j].name || strcmp(l->v[i].name, l->v[j].name) != 0)
                    continue;
                for (size_t k = i; k <= j; k += j - i) {
                    char *longer = last_components(l->v[k].path, depth);
                    if (longer) {
                        free(l->v[k].name);
                        l->v[k].name = longer;
                        changed = 1;
                    }
                }
            }
        if (!changed)
            break;
    }
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

static int positive(const char *opt, const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || !*s || v < 1)
        return bd_usage_error("ingest", "ingest: --%s '%s': expected an integer >= 1", opt, s);
    *out = v;
    return 0;
}

int cmd_ingest(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"quiet", no_argument, 0, 'q'},
        {"replace", no_argument, 0, 'r'},
        {"append", no_argument, 0, 'a'},
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
        {"source", required_argument, 0, 'S'},
        {"started-at", required_argument, 0, 'T'},
        {0, 0, 0, 0},
    };
    struct ingest_options opt = {INGEST_DEFAULT_MAX_LINE, INGEST_DEFAULT_MAX_BYTES, 0, 0, INGEST_DEFAULT_MAX_MEMBERS};
    struct ingest_run run = {0};
    run.variant = "default";
    run.block = 1;
    const char *attrs[256];
    const char *run_option = NULL; /* one that goes with --plan, --run and --host */
    int c;
    cli_getopt_reset();
    while ((c = cli_getopt("ingest", argc, argv, "qr", opts)) != -1) {
        switch (c) {
        case 'q': opt.quiet = 1; break;
        case 'r': opt.replace = 1; break;
        case 'a': run.append = 1; run_option = "--append"; break;
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
        case 'F':
            if (!ingest_harness_known(optarg))
                return bd_usage_error("ingest", "ingest: --format '%s': expected one of %s", optarg,
                                      ingest_harness_names);
            run.harness_format = optarg;
            run_option = "--format";
            break;
        case 'P': run.plan = optarg; break;
        case 'R': run.run = optarg; break;
        case 'H': run.host = optarg; break;
        case 'V': run.variant = optarg; run_option = "--variant"; break;
        case 'S': run.source = optarg; run_option = "--source"; break;
        case 'T':
            if (!ingest_time_valid(optarg))
                return bd_usage_error("ingest", "ingest: --started-at '%s': expected an RFC 3339 date-time such as "
                                                "2026-10-21T03:57:00Z", optarg);
            run.started_at = optarg;
            run_option = "--started-at";
            break;
        case 'K':
            if (positive("block", optarg, &run.block))
                return EXIT_USAGE;
            run_option = "--block";
            break;
        case 'O':
            if (positive("position", optarg, &run.position))
                return EXIT_USAGE;
            run_option = "--position";
            break;
        case 'A': {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg)
                return bd_usage_error("ingest", "ingest: --attr '%s': expected KEY=VALUE", optarg);
            if (run.n_attrs == sizeof attrs / sizeof attrs[0])
                return bd_usage_error("ingest", "ingest: more than 256 --attr options");
            for (size_t i = 0; i < run.n_attrs; i++)
                if (strncmp(attrs[i], optarg, (size_t)(eq - optarg) + 1) == 0)
                    return bd_usage_error("ingest", "ingest: --attr %.*s given twice", (int)(eq - optarg), optarg);
            attrs[run.n_attrs++] = optarg;
            run_option = "--attr";
            break;
        }
        default: return EXIT_USAGE;
        }
    }
    run.attrs = attrs;
    int files_mode = run.plan || run.run || run.host;
    if (optind >= argc)
        return bd_usage_error("ingest", "ingest: no %s given (files, directories or '-')",
                              files_mode ? "harness file" : "archive");
    if (files_mode && (!run.plan || !run.run || !run.host))
        return bd_usage_error("ingest", "ingest: --plan, --run and --host go together (the run harness files load into)");
    if (!files_mode && run_option)
        return bd_usage_error("ingest", "ingest: %s goes with --plan, --run and --host (a run archive names its own "
                                        "runs)", run_option);
    if (run.append && opt.replace)
        return bd_usage_error("ingest", "ingest: --append and --replace do not go together");

    /* A name that cannot be opened stays in the list: the loader reports it. */
    struct items list = {0};
    int rc = EXIT_OK, stdin_seen = 0;
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-") == 0) {
            if (stdin_seen++)
                continue;
        } else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (add_directory(argv[i], &list, files_mode, opt.quiet))
                rc = EXIT_FAIL;
            continue;
        }
        if (items_add(&list, argv[i], NULL)) {
            bd_error("out of memory");
            items_free(&list);
            return EXIT_FAIL;
        }
    }

    sqlite3 *db = NULL;
    if ((files_mode && list.n == 0) || cli_open_store(cli, STORE_WRITE, &db)) {
        items_free(&list);
        return EXIT_FAIL;
    }
    struct progress pr = {0};
    pr.on = !opt.quiet && isatty(2);
    pr.total = files_mode ? 1 : list.n;
    pr.t0 = pr.last = now();
    for (size_t i = 0; i < list.n; i++) {
        struct stat st;
        if (strcmp(list.v[i].path, "-") == 0 || stat(list.v[i].path, &st) != 0 || !S_ISREG(st.st_mode)) {
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
        items_free(&list);
        return EXIT_FAIL;
    }
    pr.g = g;
    if (files_mode) {
        name_files(&list);
        struct ingest_file *files = calloc(list.n, sizeof *files);
        struct strbuf shown = {0};
        for (int i = optind; i < argc; i++)
            sb_printf(&shown, "%s%s", i > optind ? " " : "", argv[i]);
        if (!files || !shown.buf) {
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
    for (size_t i = 0; !files_mode && i < list.n; i++) {
        ingester_next(g, i + 1 < list.n ? list.v[i + 1].path : NULL);
        if (ingester_archive(g, list.v[i].path) == INGEST_FAILED)
            rc = EXIT_FAIL;
        struct stat st;
        pr.done++;
        if (strcmp(list.v[i].path, "-") != 0 && stat(list.v[i].path, &st) == 0)
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
    items_free(&list);
    return rc;
}
