/* benchdb export: stored archives' original bytes back out as files, each
 * named by its SHA-256 (docs/scale-out.md, "Archives in object storage"). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "cli/cli.h"
#include "query/param_check.h"
#include "util/outfile.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct export_args {
    const char *plan, *run;
    int archive, quiet;
};

static const struct cli_opt export_opts[] = {
    {"plan", 0, "PLAN", "only the archives that stored runs or values of plan\nPLAN", cli_opt_string,
     offsetof(struct export_args, plan), 0, 0},
    {"run", 0, "PLAN/RUN", "only the archives that stored run RUN of plan PLAN", cli_opt_string,
     offsetof(struct export_args, run), 0, 0},
    {"archive", 0, "ID", "only the archive with this id ('benchdb list\narchives')", cli_opt_int,
     offsetof(struct export_args, archive), 1, 2147483647LL},
    {"quiet", 'q', NULL, "print nothing on success (no progress on a terminal)", cli_opt_flag,
     offsetof(struct export_args, quiet), 0, 0},
    {0},
};

const struct cli_spec spec_export = {
    .name = "export",
    .store = 1,
    .synopsis = (const char *const[]){"export DIR [--plan PLAN]", "export DIR --run PLAN/RUN",
                                      "export DIR --archive ID", NULL},
    .about = "Write every stored archive's original bytes (or those --plan, --run or\n"
             "--archive select) into DIR, one file per archive named by its SHA-256 and\n"
             "its original extension (DIR/SHA256.jsonl.zst), as object storage keeps them\n"
             "and 'benchdb ingest DIR' reads them back. DIR is created when missing. Each\n"
             "file is written beside its name and renamed once whole and checked: its\n"
             "SHA-256 must be the stored one. A file already there with the right bytes\n"
             "is left as it is; one with other bytes is an error.\n",
    .opts = export_opts,
    .more = "Prints how many archives were written on stdout; progress goes to stderr\n"
            "when it is a terminal.\n"
            "\n"
            "Examples:\n"
            "  benchdb export archives/\n"
            "  benchdb export out/ --plan pr-42\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "expected DIR, the directory to write the archives into",
};

/* The archive's original extension, from the name it was ingested by:
 * the last one, with the one before it when the last is a compression's
 * (.jsonl.zst, .tar.gz); "" when the name has none. */
static void extension(const char *name, char out[32])
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    *out = 0;
    if (!dot || dot == base || strlen(dot) >= 16)
        return;
    static const char *const packed[] = {".zst", ".gz", ".xz", ".bz2", ".zstd", ".lz4", NULL};
    for (int i = 0; packed[i]; i++)
        if (strcmp(dot, packed[i]) == 0) {
            const char *p = dot;
            while (p > base + 1 && p[-1] != '.')
                p--;
            if (p > base + 1 && dot - p < 15)
                dot = p - 1;
            break;
        }
    snprintf(out, 32, "%s", dot);
}

struct sink {
    FILE *f;
    struct sha256 h;
    ZSTD_DCtx *z;
    char *buf;
    size_t cap;
};

static int put(struct sink *s, const void *p, size_t n)
{
    sha256_update(&s->h, p, n);
    return fwrite(p, 1, n, s->f) == n ? 0 : -1;
}

/* One stored piece, decompressed when the archive was stored compressed. */
static int piece(struct sink *s, const void *p, size_t n, char **err)
{
    if (!s->z)
        return put(s, p, n) ? bd_fail(err, "%s", strerror(errno)) : 0;
    ZSTD_inBuffer in = {p, n, 0};
    while (in.pos < in.size) {
        ZSTD_outBuffer out = {s->buf, s->cap, 0};
        size_t r = ZSTD_decompressStream(s->z, &out, &in);
        if (ZSTD_isError(r))
            return bd_fail(err, "its stored bytes do not decompress (%s): the store is damaged ('benchdb check')",
                           ZSTD_getErrorName(r));
        if (put(s, s->buf, out.pos))
            return bd_fail(err, "%s", strerror(errno));
    }
    return 0;
}

/* The stored bytes of archive id into s. */
static int archive_bytes(struct db *db, long long id, struct sink *s, char **err)
{
    struct db_stmt *st = NULL;
    if (db_prepare(db, "SELECT data FROM archive_chunk WHERE archive_id = ?1 ORDER BY seq", &st) != SQLITE_OK ||
        db_bind_int64(st, 1, id) != SQLITE_OK)
        return db_finalize(st), bd_fail(err, "%s", db_errmsg(db));
    int rc, bad = 0;
    while (!bad && (rc = db_step(st)) == SQLITE_ROW)
        bad = piece(s, sqlite3_value_blob(db_column_value(st, 0)), (size_t)db_column_bytes(st, 0), err);
    if (!bad && rc != SQLITE_DONE)
        bad = bd_fail(err, "%s", db_errmsg(db));
    db_finalize(st);
    return bad;
}

/* Whether path holds a file whose SHA-256 is sha: 1 yes, 0 no such file,
 * -1 other bytes, -2 something that is no regular file (a FIFO, a link to
 * /dev/zero: opened without blocking and never read), -3 a file that
 * cannot be read (errno). */
static int already(const char *path, const char *sha)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -3;
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return -2;
    }
    struct sha256 h;
    sha256_init(&h);
    char buf[65536], hex[65];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&h, buf, n);
    fclose(f);
    unsigned char d[32];
    sha256_final(&h, d);
    sha256_hex(d, hex);
    return strcmp(hex, sha) == 0 ? 1 : -1;
}

/* Whether sha is 64 lower-case hex digits, as ingest stores it: it names
 * a file, so a value written into the store by hand cannot lead the file
 * out of DIR. */
static int sha_ok(const char *sha)
{
    size_t i = 0;
    for (; sha[i]; i++)
        if (!((sha[i] >= '0' && sha[i] <= '9') || (sha[i] >= 'a' && sha[i] <= 'f')))
            return 0;
    return i == 64;
}

/* One archive into dir; 1 when written, 0 when already there. The file is
 * written through util/outfile (a temporary made by mkstemp beside it,
 * renamed once whole and checked), so that a link planted at a name the
 * temporary would get is never followed. */
static int export_one(struct db *db, const char *dir, long long id, const char *sha, const char *name,
                      const char *format, int zstd, char **err)
{
    char ext[32];
    if (!sha_ok(sha))
        return bd_fail(err, "its SHA-256 in the store is not 64 hex digits: the store is damaged ('benchdb check')");
    if (strcmp(format, "files") == 0) /* harness files: the tar ingest made of them, named by them all */
        snprintf(ext, sizeof ext, ".tar");
    else
        extension(name, ext);
    char *path = bd_strdupf("%s/%s%s", dir, sha, ext);
    if (!path)
        return bd_fail(err, "out of memory");
    int rc = already(path, sha);
    if (rc == 1 || rc < 0) {
        if (rc == -1)
            bd_fail(err, "%s: already exists with other bytes than archive %lld's", path, id);
        else if (rc == -2)
            bd_fail(err, "%s: is in the way and is not a regular file (a directory, a device, a FIFO or a link to "
                         "one): nothing read or written there", path);
        else
            bd_fail(err, "%s: is in the way and cannot be read: %s", path, strerror(errno));
        free(path);
        return rc == 1 ? 0 : -1;
    }
    struct outfile o;
    if (outfile_open(&o, path, err)) {
        free(path);
        return -1;
    }
    struct sink s = {.f = o.f};
    sha256_init(&s.h);
    if (zstd) {
        s.z = ZSTD_createDCtx();
        s.cap = ZSTD_DStreamOutSize();
        s.buf = xmalloc(s.cap);
    }
    if (zstd && (!s.z || !s.buf))
        rc = bd_fail(err, "out of memory");
    else if ((rc = archive_bytes(db, id, &s, err)) == 0) {
        unsigned char d[32];
        char hex[65];
        sha256_final(&s.h, d);
        sha256_hex(d, hex);
        if (strcmp(hex, sha) != 0)
            rc = bd_fail(err, "its stored bytes give SHA-256 %s, not %s: the store is damaged ('benchdb check')", hex, sha);
    }
    if (rc)
        outfile_abort(&o);
    else
        rc = outfile_commit(&o, err);
    ZSTD_freeDCtx(s.z);
    free(s.buf);
    free(path);
    return rc ? -1 : 1;
}

static const char select_sql[] =
    "SELECT a.id, a.sha256, a.name, a.content_encoding, a.format FROM archive AS a "
    "WHERE (CAST(?1 AS BIGINT) IS NULL OR a.id = ?1) AND (CAST(?2 AS TEXT) IS NULL OR a.id IN ("
    "SELECT r.archive_id FROM run AS r JOIN plan AS p ON p.id = r.plan_id WHERE p.name = ?2 OR p.name || '/' || r.name = ?2 "
    "UNION SELECT s.archive_id FROM series AS s JOIN run AS r ON r.id = s.run_id JOIN plan AS p ON p.id = r.plan_id "
    "WHERE p.name = ?2 OR p.name || '/' || r.name = ?2)) ORDER BY a.id";

/* The archives --plan, --run or --archive select (all without them). */
static int prepare_selection(struct db *db, const struct export_args *a, struct db_stmt **st)
{
    const char *which = a->plan ? a->plan : a->run;
    if (db_prepare(db, select_sql, st) != SQLITE_OK)
        return -1;
    if (a->archive)
        db_bind_int64(*st, 1, a->archive);
    if (which)
        db_bind_text(*st, 2, which, -1);
    return 0;
}

/* The progress line on a terminal: archives done of the selection's, at
 * most ten times a second and at the last. */
struct progress {
    long long total;
    struct timespec last;
};

static long long selection_count(struct db *db, const struct export_args *a)
{
    struct db_stmt *st = NULL;
    long long n = 0;
    if (prepare_selection(db, a, &st) == 0)
        while (db_step(st) == SQLITE_ROW)
            n++;
    db_finalize(st);
    return n;
}

static void tick(struct progress *p, long long done)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (done < p->total && (double)(now.tv_sec - p->last.tv_sec) + (double)(now.tv_nsec - p->last.tv_nsec) / 1e9 < 0.1)
        return;
    p->last = now;
    fprintf(stderr, "\r\033[Kexporting archive %lld of %lld", done, p->total);
    fflush(stderr);
}

static int export_all(struct db *db, const char *dir, const struct export_args *a, long long *n, long long *kept)
{
    struct db_stmt *st = NULL;
    struct progress pr = {.total = !a->quiet && isatty(2) ? selection_count(db, a) : 0};
    if (prepare_selection(db, a, &st)) {
        bd_error("export: %s", db_errmsg(db));
        return EXIT_FAIL;
    }
    int rc, bad = 0;
    while (!bad && (rc = db_step(st)) == SQLITE_ROW) {
        long long id = db_column_int64(st, 0);
        char *err = NULL;
        int w = export_one(db, dir, id, (const char *)db_column_text(st, 1), (const char *)db_column_text(st, 2),
                           (const char *)db_column_text(st, 4), strcmp((const char *)db_column_text(st, 3), "zstd") == 0,
                           &err);
        if (w < 0) {
            if (pr.total)
                fputs("\r\033[K", stderr);
            bd_error("export: archive %lld (%s): %s; the files already written stay", id,
                     (const char *)db_column_text(st, 2), err ? err : "out of memory");
            bad = 1;
        }
        free(err);
        *n += w == 1;
        *kept += w == 0;
        if (pr.total && !bad)
            tick(&pr, *n + *kept);
    }
    if (pr.total)
        fputs("\r\033[K", stderr);
    if (!bad && rc != SQLITE_DONE) {
        bd_error("export: %s", db_errmsg(db));
        bad = 1;
    }
    db_finalize(st);
    return bad ? EXIT_FAIL : EXIT_OK;
}

/* Whether the selection holds an archive: 1, 0, or -1 on an error. */
static int selects_any(struct db *db, const struct export_args *a)
{
    struct db_stmt *st = NULL;
    if (prepare_selection(db, a, &st))
        return -1;
    int rc = db_step(st);
    db_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* --run PLAN/RUN that selects nothing: a usage error naming the nearest
 * plans or runs when the plan or the run is not stored (the plan is the
 * longest part before a '/' that names one, plans may hold '/'). */
static int check_run_names(struct db *db, const char *arg, char **err)
{
    const char *at = strchr(arg, '/');
    for (const char *slash = at; slash; slash = strchr(slash + 1, '/')) {
        char *plan = xstrndup(arg, (size_t)(slash - arg)), *why = NULL;
        int rc = param_check_name(db, NAMES_PLAN, plan, NULL, &why);
        free(plan);
        free(why);
        if (rc == EXIT_OK)
            at = slash;
    }
    char *plan = xstrndup(arg, (size_t)(at - arg));
    int rc = param_check_name(db, NAMES_PLAN, plan, NULL, err);
    if (rc == EXIT_OK)
        rc = param_check_name(db, NAMES_RUN, at + 1, plan, err);
    free(plan);
    return rc;
}

/* --archive ID that names no stored archive: a usage error, as a name the
 * store does not hold, saying which ids there are. */
static int no_archive(struct db *db, int id)
{
    struct db_stmt *st;
    long long lo = 0, hi = 0, n = 0;
    if (db_prepare(db, "SELECT min(id), max(id), count(*) FROM archive", &st) != SQLITE_OK) {
        bd_error("export: %s", db_errmsg(db));
        return EXIT_FAIL;
    }
    if (db_step(st) == SQLITE_ROW) {
        lo = db_column_int64(st, 0);
        hi = db_column_int64(st, 1);
        n = db_column_int64(st, 2);
    }
    db_finalize(st);
    if (n == 0)
        return bd_usage_error("export", "export: --archive: no stored archive has id %d (the store holds none)", id);
    if (n == 1)
        return bd_usage_error("export", "export: --archive: no stored archive has id %d (its one archive is %lld)", id,
                              lo);
    return bd_usage_error("export",
                          "export: --archive: no stored archive has id %d (its %lld archives are %s%lld to %lld: "
                          "'benchdb list archives' lists them)",
                          id, n, n < hi - lo + 1 ? "among " : "", lo, hi);
}

/* Before DIR is made: a selection that holds no archive is an error, a
 * usage error naming the nearest plans or runs when the name is not
 * stored at all. EXIT_OK when it holds some. */
static int check_selection(struct db *db, const struct export_args *a)
{
    if (!a->plan && !a->run && !a->archive)
        return EXIT_OK;
    int any = selects_any(db, a);
    if (any != 0) {
        if (any < 0)
            bd_error("export: %s", db_errmsg(db));
        return any > 0 ? EXIT_OK : EXIT_FAIL;
    }
    if (a->archive)
        return no_archive(db, a->archive);
    char *err = NULL;
    int rc = a->plan ? param_check_name(db, NAMES_PLAN, a->plan, NULL, &err) : check_run_names(db, a->run, &err);
    if (rc == EXIT_USAGE)
        bd_usage_error("export", "export: %s: %s", a->plan ? "--plan" : "--run", err);
    else if (rc == EXIT_FAIL)
        bd_error("export: %s", err ? err : "out of memory");
    else
        bd_error("export: no stored archive holds %s '%s'", a->plan ? "plan" : "run", a->plan ? a->plan : a->run);
    free(err);
    return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
}

int cmd_export(struct cli *cli, int argc, char **argv)
{
    struct export_args a = {0};
    int first;
    if (cli_parse(&spec_export, argc, argv, &a, &first))
        return EXIT_USAGE;
    if (!!a.plan + !!a.run + !!a.archive > 1)
        return bd_usage_error("export", "export: give at most one of --plan, --run and --archive");
    if (a.run && !strchr(a.run, '/'))
        return bd_usage_error("export", "export: --run '%s': expected PLAN/RUN", a.run);
    const char *dir = argv[first];
    /* The store and the selection first: DIR is made only for an export
     * that has something to write. */
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    /* One snapshot, and on a server the stored bytes read in batches. */
    if (store_begin_readonly(db, 0, NULL) != SQLITE_OK) {
        bd_error("export: %s", db_errmsg(db));
        db_close(db);
        return EXIT_FAIL;
    }
    int rc = check_selection(db, &a);
    struct stat sb;
    if (rc == EXIT_OK && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        bd_error("export: %s: cannot create the directory: %s", dir, strerror(errno));
        rc = EXIT_FAIL;
    } else if (rc == EXIT_OK && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
        bd_error("export: %s: not a directory", dir);
        rc = EXIT_FAIL;
    }
    long long n = 0, kept = 0;
    if (rc == EXIT_OK)
        rc = export_all(db, dir, &a, &n, &kept);
    store_end_readonly(db);
    db_close(db);
    if (rc == EXIT_OK && !a.quiet)
        cli_say("exported %lld archive%s to %s (%lld already there)", n, n == 1 ? "" : "s", dir, kept);
    return rc;
}
