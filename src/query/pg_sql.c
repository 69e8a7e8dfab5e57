/* A saved query's SQL for PostgreSQL: its named parameters rewritten
 * (query/pg_sql.h). The scan knows SQLite's tokens that may hold a colon
 * or an @ or $ that is no parameter: string literals ('it''s'), quoted
 * identifiers ("a", [a], `a`), comments (-- and / * * /), and
 * PostgreSQL's cast operator (::). A token the two engines read
 * differently is refused (lexical_difference): the query would not be the
 * one SQLite's read-only guard checked (docs/postgresql.md, "Read-only
 * analysis"). */
#include "query/pg_sql.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"

const char *pg_param_type(const struct param_type_spec *t)
{
    switch (t->type) {
    case PARAM_INTEGER:
    case PARAM_BOOLEAN:
        return "BIGINT";
    case PARAM_REAL:
        return "DOUBLE PRECISION";
    default:
        return "TEXT";
    }
}

/* A character of a parameter's name after its prefix, as SQLite reads it
 * (letters, digits, _, $ and any byte of a multi-byte UTF-8 character). */
static int name_char(unsigned char c) { return isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

/* The end of the quoted token that starts at s (the quote included), or
 * the end of the text when it is not closed. */
static const char *quoted_end(const char *s)
{
    char close = *s == '[' ? ']' : *s;
    for (s++; *s; s++) {
        if (*s == close) {
            if (close != ']' && s[1] == close) {
                s++;
                continue;
            }
            return s + 1;
        }
    }
    return s;
}

/* The end of a block comment at s, or NULL when another opens inside it:
 * PostgreSQL's nest, SQLite's end at the first close. */
static const char *comment_end(const char *s)
{
    const char *e = strstr(s + 2, "*/");
    const char *inner = strstr(s + 2, "/*");
    if (inner && (!e || inner < e))
        return NULL;
    return e ? e + 2 : s + strlen(s);
}

/* Why the token at s (sql its text) is read otherwise by PostgreSQL than
 * by SQLite, or NULL: a string with a prefix (E'' with backslash escapes,
 * N'', B'', U&'', U&""), a name quoted SQLite's way ([a], `a`: a subscript
 * or an operator on PostgreSQL), a dollar-quoted string ($$...$$, $t$...$t$:
 * parameters on SQLite). X'' (a blob, a bytea) is read alike. */
static const char *lexical_difference(const char *sql, const char *s)
{
    if (*s == '[' || *s == '`')
        return "a name quoted with [ ] or ` ` (PostgreSQL reads a subscript or an operator; quote names with \"\")";
    if (*s == '$' && !isdigit((unsigned char)s[1])) {
        size_t n = 0;
        while (name_char((unsigned char)s[1 + n]) && s[1 + n] != '$')
            n++;
        if (s[1 + n] == '$')
            return "a dollar-quoted string (SQLite reads parameters)";
    }
    if (*s != '\'' && *s != '"')
        return NULL;
    const char *p = s - 1;
    if (p >= sql && *p == '&' && p - 1 >= sql && (p[-1] == 'u' || p[-1] == 'U') && (p - 1 == sql || !name_char((unsigned char)p[-2])))
        return "a U& string or name (SQLite reads a name and an operator)";
    if (*s == '\'' && p >= sql && strchr("eEnNbB", *p) && (p == sql || !name_char((unsigned char)p[-1])))
        return "a string with a prefix letter (E'', N'', B''), which SQLite reads as a name and a string";
    return NULL;
}

int pg_sql_rewrite(const char *sql, pg_param_writer write, void *arg, struct strbuf *out, char **err)
{
    const char *s = sql;
    while (*s) {
        const char *start = s, *why = lexical_difference(sql, s);
        if (why)
            return bd_fail(err, "the query holds %s: write it in the SQL both engines read alike", why);
        if (*s == '\'' || *s == '"') {
            s = quoted_end(s);
        } else if (s[0] == '-' && s[1] == '-') {
            s += strcspn(s, "\n");
        } else if (s[0] == '/' && s[1] == '*') {
            if (!(s = comment_end(s)))
                return bd_fail(err, "the query nests a comment in another, which PostgreSQL reads otherwise than "
                                    "SQLite: write it in the SQL both engines read alike");
        } else if (s[0] == ':' && s[1] == ':') {
            s += 2;
        } else if ((*s == ':' || *s == '@' || (*s == '$' && !isdigit((unsigned char)s[1]))) &&
                   name_char((unsigned char)s[1])) {
            const char *name = s + 1;
            size_t len = 1;
            while (name_char((unsigned char)name[len]))
                len++;
            if (write(arg, name, len, out, err))
                return -1;
            s = name + len;
            continue;
        } else if (*s == '?') {
            return bd_fail(err, "the query uses a positional parameter '?'; use named parameters (:name)");
        } else {
            s++;
            while (*s && !strchr("'\"`[-/:@$?", *s))
                s++;
        }
        if (sb_append(out, start, (size_t)(s - start)))
            return bd_fail(err, "out of memory");
    }
    return 0;
}

/* The declared parameter name (len bytes) stands for: its index, or -1
 * with *err set. */
static int param_index(const struct saved_query *q, const char *name, size_t len, char **err)
{
    for (int k = 0; k < q->nparams; k++)
        if (strlen(q->params[k].name) == len && memcmp(q->params[k].name, name, len) == 0)
            return k;
    return bd_fail(err, "query %s (%s) uses :%.*s, which its header does not declare (-- param: %.*s ...)", q->name,
                   q->source, (int)len, name, (int)len, name);
}

static int write_positional(void *arg, const char *name, size_t len, struct strbuf *out, char **err)
{
    const struct saved_query *q = arg;
    int k = param_index(q, name, len, err);
    if (k < 0)
        return -1;
    if (sb_printf(out, "CAST($%d AS %s)", k + 1, pg_param_type(&q->params[k].type)))
        return bd_fail(err, "out of memory");
    return 0;
}

int pg_sql_positional(const struct saved_query *q, struct strbuf *out, char **err)
{
    return pg_sql_positional_text(q, q->sql, out, err);
}

int pg_sql_positional_text(const struct saved_query *q, const char *sql, struct strbuf *out, char **err)
{
    return pg_sql_rewrite(sql, write_positional, (void *)q, out, err);
}

struct literal_arg {
    const struct saved_query *q;
    const struct resolved_params *rp;
};

/* A value as a PostgreSQL literal: integers and reals as they read back
 * exactly, text quoted with '' for each quote. */
static int put_literal(struct strbuf *out, const struct param_value *v)
{
    char num[40];
    switch (v->sqlite_type) {
    case SQLITE_NULL:
        return sb_puts(out, "NULL");
    case SQLITE_INTEGER:
        return sb_printf(out, "%lld", v->i);
    case SQLITE_FLOAT:
        fmt_double(num, v->d);
        return sb_printf(out, "'%s'", num);
    default: {
        int rc = sb_putc(out, '\'');
        for (const char *c = v->s; *c && rc == 0; c++)
            rc = *c == '\'' ? sb_puts(out, "''") : sb_putc(out, *c);
        return rc ? rc : sb_putc(out, '\'');
    }
    }
}

static int write_literal(void *arg, const char *name, size_t len, struct strbuf *out, char **err)
{
    const struct literal_arg *a = arg;
    int k = param_index(a->q, name, len, err);
    if (k < 0)
        return -1;
    if (sb_puts(out, "CAST(") || put_literal(out, &a->rp->v[k]) ||
        sb_printf(out, " AS %s)", pg_param_type(&a->q->params[k].type)))
        return bd_fail(err, "out of memory");
    return 0;
}

int pg_sql_literal(const struct saved_query *q, const struct resolved_params *rp, struct strbuf *out, char **err)
{
    struct literal_arg a = {q, rp};
    return pg_sql_rewrite(q->sql, write_literal, &a, out, err);
}
