/* Saved queries: parsing their header, finding them on the query path. */
#include "query/saved.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/diag.h"
#include "util/embedded.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

int query_path_add(struct query_path *qp, const char *entry)
{
    char **v = xreallocarray(qp->entries, (size_t)(qp->n + 1), sizeof *v);
    if (!v)
        return -1;
    qp->entries = v;
    qp->entries[qp->n++] = xstrdup(entry);
    return 0;
}

void query_path_add_env(struct query_path *qp)
{
    const char *env = getenv("BENCHDB_QUERIES");
    if (!env || !*env)
        return;
    char *copy = xstrdup(env), *save = NULL;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
        if (*tok)
            query_path_add(qp, tok);
    free(copy);
}

void query_path_free(struct query_path *qp)
{
    for (int i = 0; i < qp->n; i++)
        free(qp->entries[i]);
    free(qp->entries);
    qp->entries = NULL;
    qp->n = 0;
}

static void free_strv(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void saved_query_free(struct saved_query *q)
{
    if (!q)
        return;
    for (int i = 0; i < q->nparams; i++) {
        free(q->params[i].name);
        free(q->params[i].def);
        free(q->params[i].description);
        param_type_free(&q->params[i].type);
    }
    free(q->params);
    for (int i = 0; i < q->nneeds; i++) {
        free(q->needs[i].check);
        free(q->needs[i].message);
    }
    free(q->needs);
    free_strv(q->keys, q->nkeys);
    free_strv(q->show, q->nshow);
    free(q->name);
    free(q->summary);
    free(q->source);
    free(q->text);
    free(q->judges);
    free(q->outcome);
    free(q->verdict);
    free(q);
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

static int valid_ident(const char *s, int dashes)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || (dashes && *s == '-')))
            return 0;
    return 1;
}

/* Parsing one header line "-- KEY: VALUE". */
struct header {
    struct saved_query *q;
    const char *source;
    int line;
    char **err;
};

static int header_fail(struct header *h, const char *key, const char *fmt, const char *arg)
{
    char *what = bd_strdupf(fmt, arg);
    bd_fail(h->err, "%s:%d: %s: %s", h->source, h->line, key, what);
    free(what);
    return -1;
}

/* A single value: a repeated line replaces the earlier one. */
static int set_once(char **slot, char *val)
{
    free(*slot);
    *slot = xstrdup(val);
    return 0;
}

/* "a, b, c" appended to a list. */
static int split_list(const char *val, char ***v, int *n)
{
    char *list = xstrdup(val), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *t = trimmed(tok, strlen(tok));
        if (!*t) {
            free(t);
            continue;
        }
        *v = xreallocarray(*v, (size_t)(*n + 1), sizeof **v);
        (*v)[(*n)++] = t;
    }
    free(list);
    return 0;
}

static int h_name(struct header *h, char *val)
{
    set_once(&h->q->name, val);
    return valid_ident(val, 1) ? 0 : header_fail(h, "name", "expected letters, digits, '_' or '-', got '%s'", val);
}
static int h_summary(struct header *h, char *val) { return set_once(&h->q->summary, val); }
static int h_judges(struct header *h, char *val) { return set_once(&h->q->judges, val); }
static int h_outcome(struct header *h, char *val) { return set_once(&h->q->outcome, val); }
static int h_verdict(struct header *h, char *val) { return set_once(&h->q->verdict, val); }
static int h_key(struct header *h, char *val) { return split_list(val, &h->q->keys, &h->q->nkeys); }
static int h_show(struct header *h, char *val) { return split_list(val, &h->q->show, &h->q->nshow); }

/* NAME [= DEFAULT]  description: the default ends at two spaces or a tab. */
static int h_param(struct header *h, char *val)
{
    const char *s = val;
    size_t nlen = strcspn(s, " \t=");
    struct saved_param sp = {0};
    sp.name = xstrndup(s, nlen);
    sp.line = h->line;
    s += nlen;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '=') {
        s++;
        while (*s == ' ' || *s == '\t')
            s++;
        const char *end = strstr(s, "  ");
        const char *tab = strchr(s, '\t');
        if (!end || (tab && tab < end))
            end = tab;
        if (!end)
            end = s + strlen(s);
        sp.def = trimmed(s, (size_t)(end - s));
        sp.has_default = 1;
        s = end;
    }
    sp.description = trimmed(s, strlen(s));
    int bad = 0;
    if (!valid_ident(sp.name, 0))
        bad = header_fail(h, "param", "expected a parameter name, got '%s'", sp.name);
    else if (saved_query_param(h->q, sp.name))
        bad = header_fail(h, "param", "'%s' is declared twice", sp.name);
    if (bad) {
        free(sp.name);
        free(sp.def);
        free(sp.description);
        return -1;
    }
    h->q->params = xreallocarray(h->q->params, (size_t)(h->q->nparams + 1), sizeof *h->q->params);
    h->q->params[h->q->nparams++] = sp;
    return 0;
}

/* NAME = TYPE, for a parameter declared above (choices: NAME = A, B). */
static int set_type(struct header *h, const char *key, const char *val, const char *prefix)
{
    const char *eq = strchr(val, '=');
    char *pname = eq ? trimmed(val, (size_t)(eq - val)) : NULL;
    struct saved_param *sp = pname ? (struct saved_param *)saved_query_param(h->q, pname) : NULL;
    free(pname);
    if (!sp)
        return header_fail(h, key, "expected 'NAME = ...' naming a parameter declared above, got '%s'", val);
    const char *given = eq + 1;
    while (isspace((unsigned char)*given))
        given++;
    char *spec = bd_strdupf("%s%s", prefix, given), *why = NULL;
    struct param_type_spec t;
    int rc = param_type_parse(spec, &t, &why);
    if (rc)
        header_fail(h, key, "%s", why);
    else {
        param_type_free(&sp->type);
        sp->type = t;
    }
    free(spec);
    free(why);
    return rc;
}
static int h_type(struct header *h, char *val) { return set_type(h, "type", val, ""); }
static int h_choices(struct header *h, char *val) { return set_type(h, "choices", val, "choice of "); }

static int h_needs(struct header *h, char *val)
{
    struct saved_query *q = h->q;
    if (q->nneeds && !q->needs[q->nneeds - 1].message)
        return header_fail(h, "needs", "the needs line above has no '-- unmet: MESSAGE' line%s", "");
    if (!*val)
        return header_fail(h, "needs", "expected an SQL expression that must be true%s", "");
    q->needs = xreallocarray(q->needs, (size_t)(q->nneeds + 1), sizeof *q->needs);
    q->needs[q->nneeds++] = (struct saved_need){xstrdup(val), NULL, h->line};
    return 0;
}

static int h_unmet(struct header *h, char *val)
{
    struct saved_query *q = h->q;
    if (!q->nneeds || q->needs[q->nneeds - 1].message)
        return header_fail(h, "unmet", "expected right after a '-- needs:' line, got '%s'", val);
    q->needs[q->nneeds - 1].message = xstrdup(val);
    return 0;
}

static const struct {
    const char *key;
    int (*parse)(struct header *h, char *val);
} header_keys[] = {
    {"name", h_name},       {"summary", h_summary}, {"param", h_param},   {"type", h_type},
    {"choices", h_choices}, {"judges", h_judges},   {"outcome", h_outcome}, {"verdict", h_verdict},
    {"show", h_show},       {"key", h_key},         {"needs", h_needs},   {"unmet", h_unmet},
};

/* One header line (trimmed); lines that are not "-- KEY: VALUE" with a
 * known KEY are free text. */
static int header_line(struct header *h, const char *l)
{
    const char *c = l + 2;
    while (*c == ' ')
        c++;
    const char *colon = strchr(c, ':');
    if (!colon)
        return 0;
    char *key = trimmed(c, (size_t)(colon - c));
    char *val = trimmed(colon + 1, strlen(colon + 1));
    int rc = 0;
    for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++)
        if (strcmp(key, header_keys[i].key) == 0)
            rc = header_keys[i].parse(h, val);
    free(key);
    free(val);
    return rc;
}

/* What the header as a whole must satisfy. */
static int header_check(struct saved_query *q, const char *source, char **err)
{
    if (!q->name)
        return bd_fail(err, "%s: the header has no '-- name:' line", source);
    if (q->judges && !saved_query_param(q, q->judges))
        return bd_fail(err, "%s: judges: '%s' is not one of the query's parameters", source, q->judges);
    if (q->nneeds && !q->needs[q->nneeds - 1].message)
        return bd_fail(err, "%s:%d: needs: no '-- unmet: MESSAGE' line follows", source, q->needs[q->nneeds - 1].line);
    for (int i = 0; i < q->nparams; i++) {
        const struct saved_param *p = &q->params[i];
        struct param_value v;
        char *why = NULL;
        if (p->has_default && strcmp(p->def, "null") != 0 && param_value_parse(&p->type, p->def, &v, &why)) {
            bd_fail(err, "%s:%d: param: the default of %s, '%s': %s", source, p->line, p->name, p->def, why);
            free(why);
            return -1;
        }
    }
    return 0;
}

struct saved_query *saved_query_parse(char *text, const char *source, int builtin, char **err)
{
    struct saved_query *q = xcalloc(1, sizeof *q);
    q->text = text;
    q->source = xstrdup(source);
    q->builtin = builtin;
    struct header h = {q, source, 0, err};
    const char *p = text;
    for (;;) {
        h.line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *l = trimmed(p, len);
        int is_header = strncmp(l, "--", 2) == 0, blank = *l == 0;
        int rc = is_header ? header_line(&h, l) : 0;
        free(l);
        if (rc) {
            saved_query_free(q);
            return NULL;
        }
        if (!is_header && (!blank || !eol))
            break; /* the statement starts here */
        if (!eol) {
            p += len;
            break;
        }
        p = eol + 1;
    }
    q->sql = p;
    if (header_check(q, source, err)) {
        saved_query_free(q);
        return NULL;
    }
    if (!q->summary)
        q->summary = xstrdup("");
    return q;
}

const struct saved_param *saved_query_param(const struct saved_query *q, const char *name)
{
    for (int i = 0; i < q->nparams; i++)
        if (strcmp(q->params[i].name, name) == 0)
            return &q->params[i];
    return NULL;
}

char *saved_query_param_list(const struct saved_query *q)
{
    struct strbuf sb = {0};
    for (int i = 0; i < q->nparams; i++) {
        if (i)
            sb_puts(&sb, ", ");
        if (q->params[i].has_default)
            sb_printf(&sb, "%s = %s", q->params[i].name, q->params[i].def);
        else
            sb_printf(&sb, "%s (required)", q->params[i].name);
    }
    if (!q->nparams)
        sb_puts(&sb, "(none)");
    return xsb_detach(&sb);
}

static int cmp_query_name(const void *a, const void *b)
{
    return strcmp((*(struct saved_query *const *)a)->name, (*(struct saved_query *const *)b)->name);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static struct saved_query *load_file(const char *path, char **err)
{
    char *text = file_read_text(path, SAVED_QUERY_MAX_BYTES, "a saved query file", NULL, err);
    return text ? saved_query_parse(text, path, 0, err) : NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Notes a file (or an entry) of the query path that was skipped. */
static int skip(struct query_skips *sk, const char *path, int entry, char *why)
{
    struct query_skip *v = xreallocarray(sk->v, (size_t)(sk->n + 1), sizeof *v);
    if (!v) {
        free(why);
        return -1;
    }
    sk->v = v;
    sk->v[sk->n++] = (struct query_skip){xstrdup(path), why, entry};
    return 0;
}

void query_skips_free(struct query_skips *sk)
{
    for (int i = 0; i < sk->n; i++) {
        free(sk->v[i].path);
        free(sk->v[i].why);
    }
    free(sk->v);
    sk->v = NULL;
    sk->n = 0;
}

/* The .sql files of a directory entry (or the entry itself), sorted; -1
 * with *why when the entry cannot be read. */
static int entry_files(const char *entry, char ***out, char **why)
{
    struct stat st;
    *out = NULL;
    if (stat(entry, &st) != 0)
        return bd_fail(why, "%s: cannot read this query path entry: %s", entry, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        *out = xmalloc(sizeof **out);
        if (!*out)
            return bd_fail(why, "out of memory");
        (*out)[0] = xstrdup(entry);
        return 1;
    }
    DIR *d = opendir(entry);
    if (!d)
        return bd_fail(why, "%s: cannot open this query path directory: %s", entry, strerror(errno));
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".sql"))
            continue;
        *out = xreallocarray(*out, (size_t)(n + 1), sizeof **out);
        (*out)[n++] = bd_strdupf("%s/%s", entry, de->d_name);
    }
    closedir(d);
    if (n) /* a directory without queries leaves *out NULL, which qsort may not take */
        qsort(*out, (size_t)n, sizeof **out, cmp_str);
    return n;
}

/* Adds q to v unless a query of its name is there (the first wins). */
static int add_query(struct saved_query ***v, int *n, struct saved_query *q)
{
    for (int k = 0; k < *n; k++)
        if (strcmp((*v)[k]->name, q->name) == 0) {
            saved_query_free(q);
            return 0;
        }
    struct saved_query **nv = xreallocarray(*v, (size_t)(*n + 1), sizeof *nv);
    if (!nv) {
        saved_query_free(q);
        return -1;
    }
    *v = nv;
    (*v)[(*n)++] = q;
    return 0;
}

static struct saved_query *builtin(size_t i, char **err)
{
    char *src = bd_strdupf("built-in %s", embedded_queries[i].name);
    struct saved_query *q = saved_query_parse(xstrdup(embedded_queries[i].data), src, 1, err);
    free(src);
    if (q) {
        free(q->source);
        q->source = xstrdup("built-in");
    }
    return q;
}

int saved_query_scan(const struct query_path *qp, struct saved_query ***out, struct query_skips *sk, char **err)
{
    struct saved_query **v = NULL;
    int n = 0, oom = 0;
    memset(sk, 0, sizeof *sk);
    for (int e = 0; e < qp->n && !oom; e++) {
        char **files = NULL, *why = NULL;
        int nf = entry_files(qp->entries[e], &files, &why);
        if (nf < 0) {
            oom = skip(sk, qp->entries[e], e, why);
            continue;
        }
        /* nf > 0 only with files set: gcc -fanalyzer follows entry_files'
         * failures (bd_fail, always -1) as if they could return more. */
        for (int i = 0; i < nf; i++) {
            struct saved_query *q = oom ? NULL : load_file(files[i], &why);
            if (!oom)
                oom = q ? add_query(&v, &n, q) : skip(sk, files[i], e, why);
            why = NULL;
        }
        free_strv(files, nf);
    }
    /* The built-in queries come last, and must parse: a failure is a bug. */
    for (size_t i = 0; i < embedded_queries_count && !oom; i++) {
        struct saved_query *q = builtin(i, err);
        if (!q) {
            saved_query_list_free(v, n);
            query_skips_free(sk);
            return -1;
        }
        oom = add_query(&v, &n, q);
    }
    if (oom) {
        saved_query_list_free(v, n);
        query_skips_free(sk);
        return bd_fail(err, "out of memory listing the saved queries");
    }
    qsort(v, (size_t)n, sizeof *v, cmp_query_name);
    *out = v;
    return n;
}

/* Each skipped file, as a warning on stderr. */
static void warn_skipped(const struct query_skips *sk)
{
    for (int i = 0; i < sk->n; i++)
        bd_warning("%s; skipped (the other saved queries still work)", sk->v[i].why);
}

int saved_query_list(const struct query_path *qp, struct saved_query ***out, char **err)
{
    struct query_skips sk;
    int n = saved_query_scan(qp, out, &sk, err);
    warn_skipped(&sk);
    query_skips_free(&sk);
    return n;
}

void saved_query_list_free(struct saved_query **v, int n)
{
    for (int i = 0; i < n; i++)
        saved_query_free(v[i]);
    free(v);
}

/* The file name of path without directory or ".sql": what the query in a
 * file that cannot be read is most likely called. */
static int stem_is(const char *path, const char *name)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (ends_with(base, ".sql"))
        len -= 4;
    return strlen(name) == len && strncmp(base, name, len) == 0;
}

/* Where in the query path a query was found: its entry's index, or
 * qp->n for a built-in one. */
static int entry_of(const struct query_path *qp, const struct saved_query *q)
{
    if (q->builtin)
        return qp->n;
    for (int e = 0; e < qp->n; e++) {
        size_t len = strlen(qp->entries[e]);
        if (strcmp(q->source, qp->entries[e]) == 0 ||
            (strncmp(q->source, qp->entries[e], len) == 0 && q->source[len] == '/' && !strchr(q->source + len + 1, '/')))
            return e;
    }
    return qp->n;
}

struct saved_query *saved_query_find(const struct query_path *qp, const char *name, int *unknown, char **err)
{
    *unknown = 0;
    if (ends_with(name, ".sql") || strchr(name, '/'))
        return load_file(name, err);
    struct saved_query **v;
    struct query_skips sk;
    int n = saved_query_scan(qp, &v, &sk, err);
    if (n < 0)
        return NULL;
    struct saved_query *found = NULL;
    const char **names = xcalloc((size_t)n + 1, sizeof *names);
    for (int i = 0; i < n; i++) {
        if (names)
            names[i] = v[i]->name;
        if (strcmp(v[i]->name, name) == 0)
            found = v[i];
    }
    /* A file NAME.sql that cannot be read, where it would come before the
     * query found (or none is): most likely the query asked for. Running
     * another one of that name (a built-in it meant to replace) instead
     * would be wrong, so it is an error, not a warning. */
    const struct query_skip *meant = NULL;
    int at = found ? entry_of(qp, found) : qp->n + 1;
    for (int i = 0; i < sk.n && !meant; i++)
        if (sk.v[i].entry <= at && stem_is(sk.v[i].path, name))
            meant = &sk.v[i];
    if (meant) {
        found = NULL;
        bd_fail(err, "%s (by its file name, the saved query %s asked for: fix the file or remove it)", meant->why,
                name);
    } else if (!found) {
        *unknown = 1;
        char *m = suggest_unknown("saved query", "saved queries", name, names, names ? (size_t)n : 0);
        bd_fail(err, "%s", m);
        free(m);
    }
    if (!meant)
        warn_skipped(&sk);
    free(names);
    query_skips_free(&sk);
    for (int i = 0; i < n; i++)
        if (v[i] != found)
            saved_query_free(v[i]);
    free(v);
    return found;
}
