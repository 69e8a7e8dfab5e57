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
#include "util/text.h"

int query_path_add(struct query_path *qp, const char *entry)
{
    char **v = realloc(qp->entries, (size_t)(qp->n + 1) * sizeof *v);
    if (!v)
        return -1;
    qp->entries = v;
    qp->entries[qp->n++] = strdup(entry);
    return 0;
}

void query_path_add_env(struct query_path *qp)
{
    const char *env = getenv("BENCHDB_QUERIES");
    if (!env || !*env)
        return;
    char *copy = strdup(env), *save = NULL;
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

void saved_query_free(struct saved_query *q)
{
    if (!q)
        return;
    for (int i = 0; i < q->nparams; i++) {
        free(q->params[i].name);
        free(q->params[i].def);
        free(q->params[i].description);
        for (int k = 0; k < q->params[i].nchoices; k++)
            free(q->params[i].choices[k]);
        free(q->params[i].choices);
    }
    free(q->params);
    for (int i = 0; i < q->nkeys; i++)
        free(q->keys[i]);
    free(q->keys);
    free(q->name);
    free(q->summary);
    free(q->source);
    free(q->text);
    free(q->judges);
    free(q->outcome);
    free(q);
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return strndup(s, n);
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

struct saved_query *saved_query_parse(char *text, const char *source, int builtin, char **err)
{
    struct saved_query *q = calloc(1, sizeof *q);
    q->text = text;
    q->source = strdup(source);
    q->builtin = builtin;
    const char *p = text;
    int line = 0;
    for (;;) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *l = trimmed(p, len);
        if (strncmp(l, "--", 2) != 0) {
            int blank = *l == 0;
            free(l);
            if (!blank || !eol)
                break; /* the statement starts here */
            p = eol + 1;
            continue;
        }
        const char *c = l + 2;
        while (*c == ' ')
            c++;
        const char *colon = strchr(c, ':');
        char *key = colon ? trimmed(c, (size_t)(colon - c)) : NULL;
        char *val = colon ? trimmed(colon + 1, strlen(colon + 1)) : NULL;
        int bad = 0;
        if (key && strcmp(key, "name") == 0) {
            free(q->name);
            q->name = val, val = NULL;
            bad = !valid_ident(q->name, 1);
            if (bad)
                bd_fail(err, "%s:%d: name: expected letters, digits, '_' or '-', got '%s'", source, line, q->name);
        } else if (key && strcmp(key, "summary") == 0) {
            free(q->summary);
            q->summary = val, val = NULL;
        } else if (key && strcmp(key, "judges") == 0) {
            free(q->judges);
            q->judges = val, val = NULL;
        } else if (key && strcmp(key, "outcome") == 0) {
            free(q->outcome);
            q->outcome = val, val = NULL;
        } else if (key && strcmp(key, "key") == 0) {
            char *save = NULL;
            for (char *tok = strtok_r(val, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                q->keys = realloc(q->keys, (size_t)(q->nkeys + 1) * sizeof *q->keys);
                q->keys[q->nkeys++] = trimmed(tok, strlen(tok));
            }
        } else if (key && strcmp(key, "choices") == 0) {
            const char *eq = strchr(val, '=');
            char *pname = eq ? trimmed(val, (size_t)(eq - val)) : NULL;
            struct saved_param *sp = NULL;
            for (int i = 0; pname && i < q->nparams; i++)
                if (strcmp(q->params[i].name, pname) == 0)
                    sp = &q->params[i];
            if (!sp) {
                bad = 1;
                bd_fail(err, "%s:%d: choices: expected 'NAME = A, B, ...' naming a parameter declared above, got '%s'",
                        source, line, val);
            } else {
                char *list = strdup(eq + 1), *save = NULL;
                for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                    sp->choices = realloc(sp->choices, (size_t)(sp->nchoices + 1) * sizeof *sp->choices);
                    sp->choices[sp->nchoices++] = trimmed(tok, strlen(tok));
                }
                free(list);
            }
            free(pname);
        } else if (key && strcmp(key, "param") == 0) {
            /* NAME [= DEFAULT]  description: the default ends at two spaces. */
            const char *s = val;
            size_t nlen = strcspn(s, " \t=");
            struct saved_param sp = {0};
            sp.name = strndup(s, nlen);
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
            if (!valid_ident(sp.name, 0)) {
                bad = 1;
                bd_fail(err, "%s:%d: param: expected a parameter name, got '%s'", source, line, sp.name);
            }
            for (int i = 0; !bad && i < q->nparams; i++)
                if (strcmp(q->params[i].name, sp.name) == 0) {
                    bad = 1;
                    bd_fail(err, "%s:%d: param: '%s' is declared twice", source, line, sp.name);
                }
            if (bad) {
                free(sp.name);
                free(sp.def);
                free(sp.description);
            } else {
                q->params = realloc(q->params, (size_t)(q->nparams + 1) * sizeof *q->params);
                q->params[q->nparams++] = sp;
            }
        }
        free(key);
        free(val);
        free(l);
        if (bad) {
            saved_query_free(q);
            return NULL;
        }
        if (!eol) {
            p += len;
            break;
        }
        p = eol + 1;
    }
    q->sql = p;
    if (!q->name) {
        bd_fail(err, "%s: the header has no '-- name:' line", source);
        saved_query_free(q);
        return NULL;
    }
    if (!q->summary)
        q->summary = strdup("");
    if (q->judges && !saved_query_param(q, q->judges)) {
        bd_fail(err, "%s: judges: '%s' is not one of the query's parameters", source, q->judges);
        saved_query_free(q);
        return NULL;
    }
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
    return sb_detach(&sb);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static struct saved_query *load_file(const char *path, char **err)
{
    char *text = file_read_all(path, NULL, err);
    return text ? saved_query_parse(text, path, 0, err) : NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .sql files of a directory entry (or the entry itself), sorted. */
static int entry_files(const char *entry, char ***out, char **err)
{
    struct stat st;
    *out = NULL;
    if (stat(entry, &st) != 0)
        return bd_fail(err, "%s: cannot read the query path entry: %s", entry, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        *out = malloc(sizeof **out);
        (*out)[0] = strdup(entry);
        return 1;
    }
    DIR *d = opendir(entry);
    if (!d)
        return bd_fail(err, "%s: cannot open directory: %s", entry, strerror(errno));
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".sql"))
            continue;
        *out = realloc(*out, (size_t)(n + 1) * sizeof **out);
        (*out)[n++] = bd_strdupf("%s/%s", entry, de->d_name);
    }
    closedir(d);
    qsort(*out, (size_t)n, sizeof **out, cmp_str);
    return n;
}

static void free_strv(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int saved_query_list(const struct query_path *qp, struct saved_query ***out, char **err)
{
    struct saved_query **v = NULL;
    int n = 0;
    for (int e = 0; e <= qp->n; e++) {
        char **files = NULL;
        int nf;
        if (e < qp->n) {
            nf = entry_files(qp->entries[e], &files, err);
            if (nf < 0) {
                saved_query_list_free(v, n);
                return -1;
            }
        } else {
            nf = (int)embedded_queries_count;
        }
        for (int i = 0; i < nf; i++) {
            struct saved_query *q;
            if (e < qp->n) {
                q = load_file(files[i], err);
            } else {
                char *src = bd_strdupf("built-in %s", embedded_queries[i].name);
                q = saved_query_parse(strdup(embedded_queries[i].data), src, 1, err);
                free(src);
                if (q) {
                    free(q->source);
                    q->source = strdup("built-in");
                }
            }
            if (!q) {
                free_strv(files, nf);
                saved_query_list_free(v, n);
                return -1;
            }
            int dup = 0;
            for (int k = 0; k < n; k++)
                if (strcmp(v[k]->name, q->name) == 0)
                    dup = 1;
            if (dup) {
                saved_query_free(q);
                continue;
            }
            v = realloc(v, (size_t)(n + 1) * sizeof *v);
            v[n++] = q;
        }
        free_strv(files, e < qp->n ? nf : 0);
    }
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && strcmp(v[k - 1]->name, v[k]->name) > 0; k--) {
            struct saved_query *t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
    *out = v;
    return n;
}

void saved_query_list_free(struct saved_query **v, int n)
{
    for (int i = 0; i < n; i++)
        saved_query_free(v[i]);
    free(v);
}

struct saved_query *saved_query_find(const struct query_path *qp, const char *name, char **err)
{
    if (ends_with(name, ".sql") || strchr(name, '/'))
        return load_file(name, err);
    struct saved_query **v;
    int n = saved_query_list(qp, &v, err);
    if (n < 0)
        return NULL;
    struct saved_query *found = NULL;
    for (int i = 0; i < n; i++)
        if (strcmp(v[i]->name, name) == 0) {
            found = v[i];
            v[i] = NULL;
        }
    for (int i = 0; i < n; i++)
        saved_query_free(v[i]);
    free(v);
    if (!found)
        bd_fail(err, "no saved query named '%s' (see 'benchdb queries')", name);
    return found;
}
