/* A saved query's SQL for PostgreSQL: its named parameters rewritten
 * (query/pg_sql.h). The text is cut by the connection layer's lexer
 * (store/pg_lex.h: PostgreSQL's tokens, where a colon, @ or $ is code and
 * where it is in a string, a quoted name or a comment, and its :: cast);
 * its parameters are read by pg_lex_param, as db_pg.c reads them. A token
 * the two engines read differently is refused (lexical_difference): the
 * query would not be the one SQLite's read-only guard checked
 * (docs/postgresql.md, "Read-only analysis"). */
#include "query/pg_sql.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "store/pg_lex.h"
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

/* Why the token t is read otherwise by PostgreSQL than by SQLite, or
 * NULL: a string with a prefix (E'' with backslash escapes, N'', B'',
 * U&'', U&""), a name quoted SQLite's way ([a], `a`: a subscript or an
 * operator on PostgreSQL), a dollar-quoted string ($$...$$, $t$...$t$:
 * parameters on SQLite), a block comment with another opening inside it
 * (PostgreSQL's nest, SQLite's end at the first close). X'' (a blob, a
 * bytea) is read alike. */
static const char nested[] = "nested";
static const char *lexical_difference(struct pg_token t)
{
    char c = (char)tolower((unsigned char)*t.at);
    switch (t.kind) {
    case PG_TOK_OTHER:
        return c == '[' || c == '`'
                   ? "a name quoted with [ ] or ` ` (PostgreSQL reads a subscript or an operator; quote names with \"\")"
                   : NULL;
    case PG_TOK_UQNAME:
        return "a U& string or name (SQLite reads a name and an operator)";
    case PG_TOK_STRING:
        if (c == 'u')
            return "a U& string or name (SQLite reads a name and an operator)";
        if (c == '$')
            return "a dollar-quoted string (SQLite reads parameters)";
        if (strchr("enb", c))
            return "a string with a prefix letter (E'', N'', B''), which SQLite reads as a name and a string";
        return NULL;
    case PG_TOK_COMMENT:
        for (size_t i = 2; t.at[0] == '/' && i + 1 < t.len; i++)
            if (t.at[i] == '/' && t.at[i + 1] == '*')
                return nested;
        return NULL;
    default:
        return NULL;
    }
}

int pg_sql_rewrite(const char *sql, pg_param_writer write, void *arg, struct strbuf *out, char **err)
{
    for (struct pg_token t; (t = pg_lex(sql)).kind != PG_TOK_END;) {
        const char *why = lexical_difference(t);
        if (why == nested)
            return bd_fail(err, "the query nests a comment in another, which PostgreSQL reads otherwise than "
                                "SQLite: write it in the SQL both engines read alike");
        if (why)
            return bd_fail(err, "the query holds %s: write it in the SQL both engines read alike", why);
        size_t n = t.kind == PG_TOK_OTHER ? pg_lex_param(sql) : 0;
        if (n && *sql == '?')
            return bd_fail(err, "the query uses a positional parameter '?'; use named parameters (:name)");
        if (n && write(arg, sql + 1, n - 1, out, err))
            return -1;
        if (!n && sb_append(out, sql, t.len))
            return bd_fail(err, "out of memory");
        sql += n ? n : t.len;
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

static int write_typed(void *arg, const char *name, size_t len, struct strbuf *out, char **err)
{
    const struct saved_query *q = arg;
    int k = param_index(q, name, len, err);
    if (k < 0)
        return -1;
    if (sb_printf(out, "CAST(:%s AS %s)", q->params[k].name, pg_param_type(&q->params[k].type)))
        return bd_fail(err, "out of memory");
    return 0;
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
    return pg_sql_rewrite(q->sql, write_positional, (void *)q, out, err);
}

int pg_sql_typed(const struct saved_query *q, struct strbuf *out, char **err)
{
    return pg_sql_typed_text(q, q->sql, out, err);
}

int pg_sql_typed_text(const struct saved_query *q, const char *sql, struct strbuf *out, char **err)
{
    return pg_sql_rewrite(sql, write_typed, (void *)q, out, err);
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
        numfmt_real(num, v->d);
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
