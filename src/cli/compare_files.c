/* `benchdb compare` on files (compare_files.h): the sides' files read into
 * benchstat's tables, nothing stored. Go benchmark text is read as
 * benchstat reads it (src/compare/gotext.c), so that the table comes out
 * as benchstat prints it; every other harness file ingest reads is loaded
 * into a store in memory (run LABEL of plan "files") and its series read
 * back as results, in the order they were stored. */
#include "cli/compare_files.h"

#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "compare/units.h"
#include "ingest/ingest.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

/* A file, a directory of harness files, or standard input. */
static int is_file(const char *p)
{
    struct stat st;
    return strcmp(p, "-") == 0 || stat(p, &st) == 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return strcmp(p, "-") != 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int compare_side_twice(const struct compare_side *s, const char **first, const char **second)
{
    for (size_t i = 0; i < s->npaths; i++) {
        struct stat si;
        int in_i = strcmp(s->paths[i], "-") == 0;
        if (!in_i && stat(s->paths[i], &si) != 0)
            continue;
        for (size_t j = 0; j < i; j++) {
            struct stat sj;
            int in_j = strcmp(s->paths[j], "-") == 0;
            if (in_i != in_j || (!in_j && stat(s->paths[j], &sj) != 0))
                continue;
            if (in_i || (si.st_dev == sj.st_dev && si.st_ino == sj.st_ino)) {
                *first = s->paths[j];
                *second = s->paths[i];
                return 1;
            }
        }
    }
    return 0;
}

void compare_side_free(struct compare_side *s)
{
    for (size_t i = 0; i < s->npaths; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->label);
    memset(s, 0, sizeof *s);
}

static int add_path(struct compare_side *s, const char *p, size_t n)
{
    char **v = xreallocarray(s->paths, s->npaths + 1, sizeof *v);
    if (!v)
        return -1;
    s->paths = v;
    return (s->paths[s->npaths] = xstrndup(p, n)) ? (int)(++s->npaths, 0) : -1;
}

int compare_side_parse(const char *arg, struct compare_side *s)
{
    memset(s, 0, sizeof *s);
    s->arg = arg;
    const char *eq = strchr(arg, '=');
    const char *rest = arg;
    if (!is_file(arg) && eq && eq > arg) {
        s->label = xstrndup(arg, (size_t)(eq - arg));
        rest = eq + 1;
    } else
        s->label = xstrdup(arg);
    if (!s->label)
        return -1;
    if (is_file(rest))
        return add_path(s, rest, strlen(rest)) ? -1 : 1;
    int files = *rest != 0;
    for (const char *p = rest; *p;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (add_path(s, p, n))
            return -1;
        files &= n > 0 && is_file(s->paths[s->npaths - 1]);
        p += n + (c != NULL);
    }
    return files;
}

int compare_side_expand(struct compare_side *s)
{
    for (size_t i = 0; i < s->npaths; i++) {
        if (!is_dir(s->paths[i]))
            continue;
        char **found;
        size_t nf;
        if (cli_harness_files_under(s->paths[i], &found, &nf))
            return -1;
        /* paths[i] becomes found[0 .. nf) */
        char **v = xcalloc(s->npaths + nf, sizeof *v);
        memcpy(v, s->paths, i * sizeof *v);
        memcpy(v + i, found, nf * sizeof *v);
        memcpy(v + i + nf, s->paths + i + 1, (s->npaths - i - 1) * sizeof *v);
        free(s->paths[i]);
        free(s->paths);
        free(found);
        s->paths = v;
        s->npaths += nf - 1;
        i += nf - 1;
    }
    return 0;
}

int compare_output_done(int failed)
{
    int before = errno; /* a failed write's (cli_output_failed) */
    errno = 0;
    if (!failed && fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!errno)
        errno = before;
    cli_output_failed("compare");
    return -1;
}

int compare_print_table(struct cmp_model *m, const struct out_notes *rep)
{
    out_notes_print_lines(rep, 0, 1, stdout, stderr);
    int rc = cmp_print_text(m, stdout);
    out_notes_print_lines(rep, 1, rep->nnotes, stdout, stderr);
    return rc;
}

char *compare_none_changed(const struct cmp_model *m)
{
    for (size_t i = 0; i < m->ntables; i++)
        for (size_t r = 0; r < m->tables[i].nrows; r++)
            for (int e = 1; e < m->tables[i].ncols; e++)
                if (cmp_cell_changed(&m->tables[i].rows[r].cells[e]))
                    return NULL;
    struct cmp_counts c;
    char *words = cmp_count(m, &c) ? NULL : cmp_counts_words(&c);
    char *line = bd_strdupf("No cell %s (%s).", m->compared ? "changed" : "was compared", words ? words : "?");
    free(words);
    return line;
}

int compare_print_none_changed(const char *line, enum out_format f)
{
    if (!line || (f != OUT_TABLE && f != OUT_VERTICAL))
        return 0;
    return fprintf(stdout, "%s\n", line) < 0 ? -1 : 0;
}

char *compare_file_name(size_t k, const char *path)
{
    const char *slash = strrchr(path, '/');
    return bd_strdupf("%03zu/%s", k + 1, strcmp(path, "-") == 0 ? "stdin" : slash ? slash + 1 : path);
}

/* ---- reading ---- */

static int read_all(const char *path, struct strbuf *out, char **err)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return bd_fail(err, "cannot open: %s", strerror(errno));
    char buf[1 << 16];
    ssize_t n;
    int rc = 0;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = bd_fail(err, "cannot read: %s", strerror(errno));
            break;
        }
        if (sb_append(out, buf, (size_t)n)) {
            rc = bd_fail(err, "out of memory");
            break;
        }
    }
    if (!is_stdin)
        close(fd);
    return rc;
}

/* A harness file that is not plain Go text, kept for the in-memory store
 * (standard input in a temporary file, which ingest reads again). */
struct other {
    int side;
    const char *path;
    char *tmp;
};

/* Standard input's bytes in a temporary file (its name malloc'd). */
static int save_stdin(const struct strbuf *text, char **name, char **err)
{
    const char *dir = getenv("TMPDIR");
    *name = bd_strdupf("%s/benchdb-compare-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(*name);
    if (fd < 0) {
        free(*name);
        *name = NULL;
        return bd_fail(err, "cannot create a temporary file: %s", strerror(errno));
    }
    size_t off = 0;
    while (off < text->len) {
        ssize_t n = write(fd, text->buf + off, text->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    close(fd);
    return off == text->len ? 0 : bd_fail(err, "cannot write a temporary file: %s", strerror(errno));
}

/* What an archive that is no plain run stream is, for a message: "a zip
 * file", "a tar file", or (compressed: its content unseen here) "a
 * compressed run stream or tar file"; NULL for a plain run stream. */
static const char *container_kind(const struct strbuf *text, int compressed)
{
    if (text->len >= 4 && memcmp(text->buf, "PK\3\4", 4) == 0)
        return "a zip file";
    if (text->len >= 262 && memcmp(text->buf + 257, "ustar", 5) == 0)
        return "a tar file";
    return compressed ? "a compressed run stream or tar file" : NULL;
}

/* Whether the comma-separated list holds word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
            return 1;
    return 0;
}

/* Reads one file: Go text into the builder, anything ingest reads noted
 * for later. 0, or EXIT_FAIL having printed why. */
static int read_file(struct cmp_builder *b, const struct compare_side *s,
                     int side, const char *path, struct other *others, size_t *nothers, struct strbuf *formats)
{
    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct strbuf text = {0};
    char *err = NULL;
    enum ingest_kind kind;
    const char *harness = NULL;
    int compressed = 0, rc = EXIT_OK;
    if (read_all(path, &text, &err) ||
        ingest_classify_buffer(text.buf ? text.buf : "", text.len, &kind, &harness, &compressed, &err)) {
        bd_error("compare: %s: %s", shown, err);
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_OK && harness && !has_word(xsb_text(formats), harness))
        sb_printf(formats, "%s%s", formats->len ? ", " : "", harness);
    if (rc != EXIT_OK) { /* said */
    } else if (harness && strcmp(harness, "go-bench") == 0 && !compressed) {
        size_t before = cmp_builder_values(b);
        int r = cmp_read_gotext(b, s->label, shown, text.buf, text.len, &err);
        if (r) {
            bd_error("compare: %s", err);
            rc = EXIT_FAIL;
        } else if (cmp_builder_values(b) == before) {
            bd_error("compare: %s: no benchmark results read as go-bench", shown);
            rc = EXIT_FAIL;
        }
    } else if (harness) {
        struct other *x = &others[(*nothers)++];
        *x = (struct other){side, path, NULL};
        if (strcmp(path, "-") == 0 && save_stdin(&text, &x->tmp, &err)) {
            bd_error("compare: <stdin>: %s", err);
            rc = EXIT_FAIL;
        }
    } else {
        if (kind == INGEST_KIND_ARCHIVE && container_kind(&text, compressed))
            /* A CI artifact of harness files, as often as a store's runs. */
            bd_error("compare: %s: %s, which compare does not read: unpack one of harness files and give the "
                     "directory; ingest one of runs (benchdb-run/1) into a store and compare its runs",
                     shown, container_kind(&text, compressed));
        else if (kind == INGEST_KIND_ARCHIVE)
            bd_error("compare: %s: a benchdb-run/1 archive carries its own runs: ingest it into a store and compare "
                     "its runs", shown);
        else
            bd_error("compare: %s: %s%snot a format benchdb reads (Go benchmark text, or one of %s)", shown,
                     ingest_empty_note(text.len), ingest_encoding_note(text.buf, text.len), ingest_harness_list());
        rc = EXIT_FAIL;
    }
    sb_free(&text);
    free(err);
    return rc;
}

/* ---- other harness files, through a store in memory ---- */

/* The full name of a cell as a Go benchmark's (as `compare` names cells on
 * a store): its name without "Benchmark", "/KEY=VALUE" per param, procs as
 * the "-N" suffix; pkg into *pkg (malloc'd), a configuration. */
static char *full_name(const char *name, const char *params, char **pkg)
{
    struct strbuf sb = {0};
    int rc = sb_puts(&sb, strncmp(name, "Benchmark", 9) == 0 && name[9] ? name + 9 : name);
    json_t *p = params ? json_loads(params, 0, NULL) : NULL;
    const char *k;
    json_t *v;
    *pkg = NULL;
    json_object_foreach(p, k, v) {
        if (strcmp(k, "procs") == 0 && json_is_integer(v))
            continue;
        if (strcmp(k, "pkg") == 0 && json_is_string(v)) {
            *pkg = xstrdup(json_string_value(v));
            continue;
        }
        char *t = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        rc = rc || sb_printf(&sb, "/%s=%s", k, json_is_string(v) ? json_string_value(v) : t ? t : "?");
        free(t);
    }
    json_t *procs = json_object_get(p, "procs");
    if (json_is_integer(procs))
        rc = rc || sb_printf(&sb, "-%lld", (long long)json_integer_value(procs));
    json_decref(p);
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

/* Every stored value into the builder, series by series in the order
 * they were stored (a value with count k as k values). */
static int read_back(struct db *db, struct cmp_builder *b, char **err)
{
    static const char sql[] =
        "SELECT r.name, b.name, b.params, coalesce(se.detail ->> 'metric', se.metric), se.unit, sa.value, sa.count, "
        "se.metric = 'primary' FROM series se "
        "JOIN run r ON r.id = se.run_id JOIN benchmark b ON b.id = se.benchmark_id "
        "JOIN sample sa ON sa.series_id = se.id WHERE sa.warmup = 0 ORDER BY se.id, sa.iteration";
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    int rc, fail = 0;
    char tidy[256], label[512];
    while (!fail && (rc = db_step(st)) == SQLITE_ROW) {
        const char *metric = (const char *)db_column_text(st, 3), *unit = (const char *)db_column_text(st, 4);
        double factor = cmp_tidy_any(unit, tidy, sizeof tidy);
        if (strcmp(metric, "primary") == 0 || strcmp(metric, unit) == 0)
            snprintf(label, sizeof label, "%s", tidy);
        else
            snprintf(label, sizeof label, "%s (%s)", metric, tidy);
        char *pkg;
        char *name = full_name((const char *)db_column_text(st, 1), (const char *)db_column_text(st, 2), &pkg);
        struct cmp_value v = {db_column_double(st, 5) * factor, label, unit, metric, db_column_int64(st, 7) != 0};
        struct cmp_config cfg = {"pkg", pkg};
        for (long long k = db_column_int64(st, 6); !fail && k > 0; k--)
            fail = !name || cmp_builder_add(b, (const char *)db_column_text(st, 0), &cfg, pkg ? 1 : 0, name, &v, 1);
        free(name);
        free(pkg);
    }
    db_finalize(st);
    if (fail)
        return bd_fail(err, "out of memory");
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : bd_fail(err, "%s", db_errmsg(db));
}

/* Loads each side's other files as a run of plan "files" in a store in
 * memory (several files of one side: the run's blocks, as ingest numbers
 * them), then reads them back. ingest prints its own errors. */
static int load_others(struct cmp_builder *b, const struct compare_side *sides, int nsides,
                       const struct other *others, size_t n, struct cmp_failures *failed)
{
    struct db *db = NULL;
    char *err = NULL;
    struct ingest_options io = INGEST_OPTIONS_DEFAULT;
    io.notices = INGEST_NOTICES_NONE; /* nothing is stored anyway: the errors say what was refused */
    io.failures_only_ok = 1;          /* a side whose every benchmark failed: said as such, not refused */
    struct ingester *g = NULL;
    struct ingest_file *files = xcalloc(n + 1, sizeof *files);
    char **names = xcalloc(n + 1, sizeof *names);
    int rc = !files || !names || store_open_memory(&db, &err) || !(g = ingester_open(db, &io, NULL, &err));
    for (int s = 0; !rc && s < nsides; s++) {
        size_t k = 0;
        for (size_t i = 0; !rc && i < n; i++)
            if (others[i].side == s) {
                const char *p = others[i].tmp ? others[i].tmp : others[i].path;
                names[k] = compare_file_name(k, others[i].path);
                files[k] = (struct ingest_file){p, names[k]};
                k++;
            }
        struct ingest_run run = {.plan = "files", .run = sides[s].label, .host = "local", .variant = "default",
                                 .block = 1};
        if (k && ingester_files(g, &run, files, k, sides[s].arg) == INGEST_FAILED)
            rc = 1;
        for (size_t i = 0; i < k; i++)
            free(names[i]);
    }
    if (!rc && read_back(db, b, &err))
        rc = 1;
    const char **labels = xcalloc((size_t)nsides + 1, sizeof *labels);
    for (int s = 0; labels && s < nsides; s++)
        labels[s] = sides[s].label;
    if (!rc && (!labels || compare_read_failures(db, "files", "run", NULL, labels, nsides, failed, &err)))
        rc = 1;
    free(labels);
    if (err)
        bd_error("compare: %s", err);
    free(err);
    free(files);
    free(names);
    ingester_close(g);
    db_close(db);
    return rc ? EXIT_FAIL : EXIT_OK;
}

/* ---- the command ---- */

/* --ignore KEY that no file has leaves nothing out: a warning names it and
 * the keys the files have, the nearest first (as --exact-units warns of a
 * unit they lack). */
static void warn_unused_ignores(const struct cmp_builder *b, const struct compare_files_opts *o)
{
    int n;
    const char *const *keys = cmp_builder_keys(b, &n);
    for (size_t i = 0; i < o->nignore; i++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++)
            found = strcmp(keys[k], o->ignore[i]) == 0;
        if (found)
            continue;
        const char **near = n ? xcalloc((size_t)n, sizeof *near) : NULL;
        size_t nn = near ? suggest_nearest(o->ignore[i], keys, (size_t)n, near, (size_t)n) : 0;
        struct strbuf sb = {0};
        if (!nn)
            sb_puts(&sb, "the files have no configuration key");
        else {
            sb_puts(&sb, nn == 1 ? "the files' key: " : "the files' keys, nearest first: ");
            sb_put_name_list(&sb, near, nn, 12);
        }
        bd_warning("compare: --ignore %s: no file has the configuration key '%s', nothing is left out; %s",
                   o->ignore[i], o->ignore[i], xsb_text(&sb));
        sb_free(&sb);
        free(near);
    }
}

int compare_files_model(const struct compare_files_opts *o, struct compare_side *sides, int nsides,
                        struct cmp_model *m)
{
    struct cmp_builder *b = cmp_builder_new();
    size_t nfiles = 0;
    int stdin_used = 0, rc = b ? EXIT_OK : EXIT_FAIL;
    for (int s = 0; s < nsides; s++)
        for (size_t i = 0; i < sides[s].npaths; i++) {
            nfiles++;
            stdin_used += strcmp(sides[s].paths[i], "-") == 0;
        }
    if (stdin_used > 1) {
        cmp_builder_free(b);
        return bd_usage_error("compare", "compare: standard input (-) is given more than once");
    }
    struct other *others = xcalloc(nfiles + 1, sizeof *others);
    size_t nothers = 0;
    if (!others)
        rc = EXIT_FAIL;
    for (int s = 0; rc == EXIT_OK && s < nsides; s++)
        rc = cmp_builder_col(b, sides[s].label) ? EXIT_FAIL : EXIT_OK;
    for (size_t i = 0; rc == EXIT_OK && i < o->nignore; i++)
        rc = cmp_builder_ignore(b, o->ignore[i]) ? EXIT_FAIL : EXIT_OK;
    if (rc != EXIT_OK)
        bd_error("compare: out of memory");
    struct strbuf *formats = xcalloc((size_t)nsides, sizeof *formats);
    for (int s = 0; rc == EXIT_OK && s < nsides; s++)
        for (size_t i = 0; rc == EXIT_OK && i < sides[s].npaths; i++) {
            rc = read_file(b, &sides[s], s, sides[s].paths[i], others, &nothers, &formats[s]);
        }
    struct cmp_failures failed = {0};
    if (rc == EXIT_OK && nothers)
        rc = load_others(b, sides, nsides, others, nothers, &failed);
    if (rc == EXIT_OK)
        warn_unused_ignores(b, o);
    for (size_t i = 0; others && i < nothers; i++)
        if (others[i].tmp) {
            unlink(others[i].tmp);
            free(others[i].tmp);
        }
    free(others);
    char *err = NULL;
    int frc = rc == EXIT_OK ? cmp_builder_finish(b, &o->cmp, m, &err) : 0;
    m->ignore_option = "--ignore";
    m->failures = failed; /* the model's now */
    if (frc == 0 && rc == EXIT_OK && (m->formats = arena_alloc(&m->arena, (size_t)nsides * sizeof *m->formats)))
        for (int s = 0; s < nsides; s++)
            m->formats[s] = arena_strdup(&m->arena, xsb_text(&formats[s]));
    for (int s = 0; s < nsides; s++)
        sb_free(&formats[s]);
    free(formats);
    if (frc == -2)
        rc = bd_usage_error("compare", "%s", err);
    else if (frc) {
        bd_error("%s", err);
        rc = EXIT_FAIL;
    }
    free(err);
    cmp_builder_free(b);
    return rc;
}

/* The summary: a note on stderr ("compare: regressed (2 slower, 1
 * faster, 27 unchanged)"), the counts in the --envelope, the Markdown
 * comment's first line. 0, or -1 when memory ran out. */
int compare_summarize(const struct cmp_model *m, const char *summary, struct out_notes *rep)
{
    struct cmp_counts c;
    if (cmp_count(m, &c))
        return -1;
    char *words = cmp_after_verdict(m, &c), *json = cmp_counts_json(m, &c), *line = cmp_summary_markdown(m, &c);
    int rc = words && json && line ? 0 : -1;
    int unmet = 0;
    char *first = rc == 0 ? cmp_nothing_judged(m, &c, &unmet) : NULL;
    if (unmet < 0)
        rc = -1;
    else if (rc == 0) {
        struct strbuf clause = {0};
        cmp_failures_clause(&clause, &m->failures, 0);
        if (first)
            out_note(rep, "compare: %s%s", first, xsb_text(&clause));
        else
            out_note(rep, "compare: %s%s%s", summary, words, xsb_text(&clause));
        sb_free(&clause);
    }
    /* All of them after the tables when the first line could not name them all. */
    for (size_t i = 0; rc == 0 && m->failures.n > CMP_FAILURES_SHOWN && i < m->failures.n; i++) {
        char *t = cmp_failure_text(&m->failures.v[i]);
        out_note(rep, "compare: the harness reported a failure: %s", t);
        free(t);
    }
    if (rc == 0) {
        out_field_json(rep, "counts", json);
        /* as query compare's: why nothing was compared (the gate's exit 4), or null */
        out_field_text(rep, "unmet", unmet ? first : NULL);
        char *f = cmp_failures_json(&m->failures); /* present always: [] when none */
        out_field_json(rep, "failures", f);
        free(f);
        out_lead(rep, line);
    }
    free(first);
    free(words);
    free(json);
    free(line);
    return rc;
}

struct out_notes *compare_gate_where(const struct out_opts *o, struct out_notes *rep, struct out_notes *gate)
{
    return o->format == OUT_JSON && o->envelope ? rep : gate;
}

void compare_gate_said(const struct out_notes *gate)
{
    out_notes_print_lines(gate, 0, gate->nnotes, stdout, stderr);
}

int compare_gate_strict(const struct cmp_model *m, int gate_rc)
{
    struct cmp_counts c;
    if (gate_rc != EXIT_OK || !m->gate_strict || cmp_count(m, &c))
        return gate_rc;
    return cmp_gate_incomplete(m, &c) ? EXIT_INCOMPLETE : gate_rc;
}

void compare_gate_note(struct out_notes *rep, const struct cmp_model *m, int gate_rc)
{
    struct cmp_counts c;
    char alpha[40];
    cmp_go_float(m->alpha, alpha, sizeof alpha);
    if (gate_rc == EXIT_INCOMPLETE && cmp_count(m, &c) == 0) {
        char *why = cmp_gate_incomplete_why(m, &c, 0);
        out_note(rep, "compare: gate: incomplete (%s) (exit 5)", why ? why : "out of memory");
        free(why);
    } else if (gate_rc == EXIT_OK && cmp_count(m, &c) == 0 && cmp_counts_none_judged(&c))
        out_note(rep, "compare: gate: passes, judging no cell: none has samples enough for p ≤ %s (exit 0)", alpha);
    else if (gate_rc == EXIT_OK || gate_rc == EXIT_NOT_HELD || gate_rc == EXIT_NO_ROWS)
        out_note(rep, "compare: gate: %s (exit %d)",
                 gate_rc == EXIT_OK ? "passes" : gate_rc == EXIT_NOT_HELD ? "fails" : "nothing compared", gate_rc);
}

int compare_files_run(const struct compare_files_opts *o, struct compare_side *sides, int nsides)
{
    struct cmp_model m = {0};
    int rc = compare_files_model(o, sides, nsides, &m);
    if (rc != EXIT_OK) { /* said */
        cmp_model_free(&m);
        return rc;
    }
    struct out_notes rep = {0};
    const char *summary = m.regressed ? "regressed" : !m.compared && m.nsides >= 2 ? "nothing compared" : "no regression";
    m.gate_strict = o->gate_strict;
    int prc = compare_summarize(&m, summary, &rep);
    out_field_text(&rep, "verdict", summary);
    out_field_json(&rep, "evaluation", NULL); /* files: nothing recorded (as query's null) */
    int gate_rc = compare_gate_strict(&m, !m.compared ? EXIT_NO_ROWS : m.regressed ? EXIT_NOT_HELD : EXIT_OK);
    struct out_notes gate = {0}; /* said once the output is written (compare_gate_said) */
    if (o->gate) {
        out_field_int(&rep, "exit", gate_rc);
        compare_gate_note(compare_gate_where(&o->out, &rep, &gate), &m, gate_rc);
    }
    char *none = o->only_changed ? compare_none_changed(&m) : NULL;
    if (o->only_changed)
        cmp_model_only_changed(&m);
    if (prc) {
        bd_error("compare: out of memory");
    } else if (o->out.format == OUT_TABLE) {
        prc = compare_print_table(&m, &rep);
    } else if (o->out.format == OUT_MARKDOWN) {
        prc = cmp_print_comment(&m, stdout) || out_notes_print(&rep, NULL, &o->out, stdout, stderr);
    } else {
        struct rowset rs = {0};
        char *err = NULL;
        prc = cmp_model_rows(&m, o->cmp.alpha, o->cmp.threshold, &rs, &err);
        rep.leading = 1; /* the summary before the rows */
        if (prc)
            bd_error("compare: %s", err);
        else
            prc = out_notes_print(&rep, &rs, &o->out, stdout, stderr);
        free(err);
        rowset_free(&rs);
    }
    if (prc == 0 && o->out.format != OUT_MARKDOWN)
        prc = compare_print_none_changed(none, o->out.format);
    free(none);
    if (compare_output_done(prc != 0))
        rc = EXIT_FAIL;
    else
        rc = o->gate ? gate_rc : EXIT_OK;
    if (rc != EXIT_FAIL)
        compare_gate_said(&gate);
    out_notes_free(&gate);
    out_notes_free(&rep);
    cmp_model_free(&m);
    return rc;
}
