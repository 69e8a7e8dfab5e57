/* The `-- chart:` header line of a saved query: which view its report gets. */
#include "report/chart_spec.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define K(k) (1u << (k))
#define ROWS (K(CHART_FOREST) | K(CHART_STRIP) | K(CHART_BAR))
#define DRAWN (ROWS | K(CHART_SERIES))

enum opt_type { OPT_TEXT, OPT_LIST, OPT_FLAG, OPT_PAIR, OPT_SORT };

/* One option: its name, where it goes, and the kinds that take it. */
static const struct opt {
    const char *name;
    enum opt_type type;
    size_t off;
    unsigned kinds;
    int required;
} opts[] = {
    {"from", OPT_TEXT, offsetof(struct chart_spec, from), DRAWN, 0},
    {"group", OPT_LIST, offsetof(struct chart_spec, group), DRAWN, 0},
    {"label", OPT_LIST, offsetof(struct chart_spec, label), ROWS, 1},
    {"colour", OPT_TEXT, offsetof(struct chart_spec, colour), DRAWN, 0},
    {"color", OPT_TEXT, offsetof(struct chart_spec, colour), DRAWN, 0},
    {"estimate", OPT_TEXT, offsetof(struct chart_spec, estimate), K(CHART_FOREST), 1},
    {"lo", OPT_TEXT, offsetof(struct chart_spec, lo), K(CHART_FOREST), 1},
    {"hi", OPT_TEXT, offsetof(struct chart_spec, hi), K(CHART_FOREST), 1},
    {"x", OPT_TEXT, offsetof(struct chart_spec, x), K(CHART_SERIES), 0},
    {"y", OPT_TEXT, offsetof(struct chart_spec, y), K(CHART_SERIES), 1},
    {"value", OPT_TEXT, offsetof(struct chart_spec, value), K(CHART_STRIP) | K(CHART_BAR), 1},
    {"change", OPT_TEXT, offsetof(struct chart_spec, change), K(CHART_SERIES), 0},
    {"revision", OPT_TEXT, offsetof(struct chart_spec, revision), K(CHART_SERIES), 0},
    {"alert", OPT_TEXT, offsetof(struct chart_spec, alert), K(CHART_SERIES), 0},
    {"tick", OPT_TEXT, offsetof(struct chart_spec, tick), K(CHART_SERIES), 0},
    {"lower", OPT_TEXT, offsetof(struct chart_spec, lower), K(CHART_SERIES), 0},
    {"upper", OPT_TEXT, offsetof(struct chart_spec, upper), K(CHART_SERIES), 0},
    {"mark", OPT_TEXT, offsetof(struct chart_spec, mark), K(CHART_SERIES), 0},
    {"match", OPT_LIST, offsetof(struct chart_spec, match), K(CHART_SERIES), 0},
    {"lag", OPT_TEXT, offsetof(struct chart_spec, lag), K(CHART_SERIES), 0},
    {"flag", OPT_LIST, offsetof(struct chart_spec, flag), K(CHART_SERIES), 0},
    {"with", OPT_TEXT, offsetof(struct chart_spec, with), DRAWN, 0},
    {"summary", OPT_TEXT, offsetof(struct chart_spec, summary), K(CHART_FOREST), 0},
    {"note", OPT_TEXT, offsetof(struct chart_spec, note), K(CHART_FOREST), 0},
    {"line", OPT_TEXT, offsetof(struct chart_spec, line_col), K(CHART_BAR), 0},
    {"unit", OPT_TEXT, offsetof(struct chart_spec, unit), DRAWN, 0},
    {"band", OPT_PAIR, offsetof(struct chart_spec, band), K(CHART_FOREST) | K(CHART_STRIP) | K(CHART_BAR), 0},
    {"ref", OPT_TEXT, offsetof(struct chart_spec, ref), ROWS, 0},
    {"log", OPT_FLAG, offsetof(struct chart_spec, log), DRAWN, 0},
    {"sort", OPT_SORT, offsetof(struct chart_spec, sort), ROWS, 0},
    {"above", OPT_TEXT, offsetof(struct chart_spec, above), K(CHART_FOREST), 0},
    {"below", OPT_TEXT, offsetof(struct chart_spec, below), K(CHART_FOREST), 0},
    {"title", OPT_TEXT, offsetof(struct chart_spec, title), ~0u, 0},
    {"xlabel", OPT_TEXT, offsetof(struct chart_spec, xlabel), DRAWN, 0},
    {"ylabel", OPT_TEXT, offsetof(struct chart_spec, ylabel), DRAWN, 0},
};

static const char *kind_names[] = {"table", "forest", "series", "strip", "bar"};

const char *chart_kind_name(enum chart_kind k) { return kind_names[k]; }

void chart_spec_free(struct chart_spec *s)
{
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        char *base = (char *)s + opts[i].off;
        if (opts[i].type == OPT_TEXT && strcmp(opts[i].name, "color") != 0) {
            free(*(char **)base);
        } else if (opts[i].type == OPT_LIST) {
            for (int k = 0; k < CHART_MAX_COLS; k++)
                free(((char **)base)[k]);
        } else if (opts[i].type == OPT_PAIR) {
            free(((char **)base)[0]);
            free(((char **)base)[1]);
        }
    }
    memset(s, 0, sizeof *s);
}

/* The count of the list option at offset off. */
static int *list_count(struct chart_spec *s, size_t off)
{
    return off == offsetof(struct chart_spec, group)   ? &s->ngroup
           : off == offsetof(struct chart_spec, match) ? &s->nmatch
           : off == offsetof(struct chart_spec, flag)  ? &s->nflag
                                                       : &s->nlabel;
}

/* The next token of s: a bare word up to a space, or NAME="quoted value";
 * returns it malloc'd (quotes removed) or NULL at the end, *bad on an
 * unterminated quote. */
static char *next_token(const char **s, int *bad)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return NULL;
    struct strbuf sb = {0};
    int quoted = 0;
    for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++) {
        if (*p == '"') {
            quoted = !quoted;
            continue;
        }
        sb_putc(&sb, *p);
    }
    *bad = quoted;
    *s = p;
    return xsb_detach(&sb);
}

/* One option's value into s. Returns 0, or -1 with *err. */
static int set_option(struct chart_spec *s, const struct opt *o, int kind, const char *tok, const char *v,
                      const char *where, char **err)
{
    char *base = (char *)s + o->off;
    switch (o->type) {
    case OPT_FLAG: *(int *)base = 1; return 0;
    case OPT_TEXT:
        free(*(char **)base);
        *(char **)base = xstrdup(v);
        return *(char **)base ? 0 : bd_fail(err, "out of memory");
    case OPT_SORT:
        if (strcmp(v, "none") == 0)
            s->sort = SORT_NONE;
        else if (strcmp(v, "estimate") == 0 && kind == CHART_FOREST)
            s->sort = SORT_ESTIMATE;
        else if (strcmp(v, "value") == 0 && kind != CHART_FOREST)
            s->sort = SORT_VALUE;
        else
            return bd_fail(err, "%s: chart: sort: expected %s, got '%s'", where,
                           kind == CHART_FOREST ? "none or estimate" : "none or value", v);
        return 0;
    default: break;
    }
    char **v2 = (char **)base;
    int max = o->type == OPT_PAIR ? 2 : CHART_MAX_COLS, n = 0;
    const char *p = v;
    while (*p && n < max) {
        size_t len = strcspn(p, ",");
        if (!len)
            break;
        if (!(v2[n++] = xstrndup(p, len)))
            return bd_fail(err, "out of memory");
        p += len;
        if (*p == ',')
            p++;
    }
    if (o->type == OPT_LIST)
        *list_count(s, o->off) = n;
    if (*p || (o->type == OPT_PAIR && n != 2) || p[-1] == ',')
        return bd_fail(err, "%s: chart: %s: expected %s, got '%s'", where, tok,
                       o->type == OPT_PAIR ? "two values LO,HI (parameter names or numbers)"
                                           : "up to 6 comma-separated column names",
                       v);
    return 0;
}

/* What the line as a whole must say: the kind's required options, and
 * the options that go together. */
static int whole_line(const struct chart_spec *s, int kind, unsigned long long seen, const char *where, char **err)
{
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (opts[i].required && (opts[i].kinds & K(kind)) && !(seen & (1ull << i)))
            return bd_fail(err, "%s: chart: a %s chart needs %s=COLUMN", where, kind_names[kind], opts[i].name);
    if ((s->change || s->alert) && !s->x)
        return bd_fail(err, "%s: chart: change and alert need x=COLUMN", where);
    if (!s->lower != !s->upper)
        return bd_fail(err, "%s: chart: lower and upper go together", where);
    if ((s->mark != NULL) != (s->nmatch > 0) || ((s->lag || s->nflag) && !s->mark))
        return bd_fail(err, "%s: chart: mark=COLUMN needs match=COLUMNS (and lag and flag need mark)", where);
    if (s->with && !s->from)
        return bd_fail(err, "%s: chart: with gives the companion parameters: it needs from=QUERY", where);
    return 0;
}

static int parse_line(const char *val, const char *where, struct chart_spec *s, char **err)
{
    int bad = 0;
    char *tok = next_token(&val, &bad);
    if (!tok)
        return bd_fail(err, "%s: chart: expected a kind (forest, series, strip, bar or table)", where);
    int kind = -1;
    for (int k = 0; k < (int)(sizeof kind_names / sizeof kind_names[0]); k++)
        if (strcmp(tok, kind_names[k]) == 0)
            kind = k;
    if (kind < 0) {
        bd_fail(err, "%s: chart: expected a kind (forest, series, strip, bar or table), got '%s'", where, tok);
        free(tok);
        return -1;
    }
    free(tok);
    s->kind = (enum chart_kind)kind;
    unsigned long long seen = 0;
    while ((tok = next_token(&val, &bad))) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = 0;
        const struct opt *o = NULL;
        for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
            if (strcmp(opts[i].name, tok) == 0)
                o = &opts[i];
        int rc = 0;
        if (bad)
            rc = bd_fail(err, "%s: chart: %s: the quoted value has no closing '\"'", where, tok);
        else if (!o || !(o->kinds & K(kind))) {
            struct strbuf names = {0};
            for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
                if ((opts[i].kinds & K(kind)) && strcmp(opts[i].name, "color") != 0)
                    sb_printf(&names, "%s%s", names.len ? ", " : "", opts[i].name);
            rc = bd_fail(err, "%s: chart: '%s' is not an option of a %s chart (expected one of %s)", where, tok,
                         kind_names[kind], names.len ? xsb_text(&names) : "none");
            sb_free(&names);
        } else if (o->type == OPT_FLAG ? eq != NULL : (eq == NULL || !eq[1])) {
            rc = o->type == OPT_FLAG ? bd_fail(err, "%s: chart: %s: expected no value, got '%s'", where, tok, eq + 1)
                                     : bd_fail(err, "%s: chart: %s: expected %s=VALUE", where, tok, tok);
        } else if (seen & (1ull << (o - opts))) {
            rc = bd_fail(err, "%s: chart: %s: given twice", where, tok);
        } else {
            seen |= 1ull << (o - opts);
            rc = set_option(s, o, kind, tok, eq ? eq + 1 : NULL, where, err);
        }
        free(tok);
        if (rc)
            return -1;
    }
    return whole_line(s, kind, seen, where, err);
}

int chart_spec_parse(const char *text, const char *source, struct chart_spec *spec, char **err)
{
    memset(spec, 0, sizeof *spec);
    const char *p = text;
    int found = 0;
    for (int line = 1; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *l = p;
        while (len && isspace((unsigned char)*l))
            l++, len--;
        if (len >= 2 && strncmp(l, "--", 2) == 0) {
            const char *c = l + 2;
            while (*c == ' ')
                c++;
            if (strncmp(c, "chart:", 6) == 0 && (size_t)(c + 6 - l) <= len) {
                char where[512];
                snprintf(where, sizeof where, "%s:%d", source, line);
                if (found) {
                    chart_spec_free(spec);
                    return bd_fail(err, "%s: chart: the header has a second chart line", where);
                }
                char *val = xstrndup(c + 6, len - (size_t)(c + 6 - l));
                int rc = parse_line(val, where, spec, err);
                free(val);
                if (rc) {
                    chart_spec_free(spec);
                    return -1;
                }
                spec->line = line;
                found = 1;
            }
        } else if (len) {
            break; /* the statement starts: the header is over */
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    return found;
}
