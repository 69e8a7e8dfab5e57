/* A store's name when it names a PostgreSQL database, and that name as it
 * may be shown (store/db.h): never a password. libpq takes two forms, a
 * URI (postgresql://user:password@host:port/db?key=value&...) and a
 * string of keyword=value pairs (host=h password='...'); a password may
 * stand in either, and in the URI both before the host and as a
 * parameter. What libpq says about a name it cannot read can quote the
 * name, or a piece of a password it misread (an unescaped @ or / splits
 * it: "could not translate host name "ss@h"..."), so its messages are
 * shown only when they hold no piece of one. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/db.h"
#include "util/strbuf.h"
#include "util/suggest.h"

/* libpq 15's connection keywords, which begin a keyword=value string. */
static const char *const keywords[] = {
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
    "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
    "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode",
    "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
    "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "service",
    "target_session_attrs", NULL};

static int secret_key(const char *k, size_t n)
{
    return (n == 8 && strncasecmp(k, "password", 8) == 0) || (n == 11 && strncasecmp(k, "sslpassword", 11) == 0);
}

/* The length of the URI scheme name starts with (case aside), 0 if none. */
static size_t uri_scheme(const char *name)
{
    if (strncasecmp(name, "postgresql://", 13) == 0)
        return 13;
    return strncasecmp(name, "postgres://", 11) == 0 ? 11 : 0;
}

/* Whether name starts with one of libpq's keywords and '='. */
static int keyword_value(const char *name)
{
    const char *s = name + strspn(name, " \t\n");
    size_t n = strcspn(s, "= \t\n");
    const char *e = s + n + strspn(s + n, " \t\n");
    if (*e != '=')
        return 0;
    for (int i = 0; keywords[i]; i++)
        if (strlen(keywords[i]) == n && strncmp(s, keywords[i], n) == 0)
            return 1;
    return 0;
}

int db_is_server_name(const char *name) { return name && (uri_scheme(name) || keyword_value(name)); }

/* A name meant as a server's that libpq would not read as one, and SQLite
 * would take for a file's: a URI of another scheme or with a slash short
 * ("postgresq://", "postgresql:/u:pw@db/results", "postgresql//..."). The
 * length of its scheme with the ':' and the slashes after it, 0 if none. */
static size_t mistyped_scheme(const char *name)
{
    size_t n = strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-");
    if (n == 0 || !isalpha((unsigned char)name[0]) || uri_scheme(name))
        return 0;
    if (strncmp(name + n, "://", 3) == 0)
        return n + 3;
    int pg = (n == 8 || n == 10) && strncasecmp(name, "postgresql", n) == 0;
    if (pg && name[n] == ':')
        return n + 1 + strspn(name + n + 1, "/");
    return pg && strncmp(name + n, "//", 2) == 0 ? n + 2 : 0;
}

/* The length of the word=, blanks around =, that s begins with; 0 if none. */
static size_t key_eq(const char *s, size_t *klen)
{
    size_t k = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_");
    size_t e = k + strspn(s + k, " \t\n");
    *klen = k;
    return k && s[e] == '=' ? e + 1 : 0;
}

/* A string of keyword=value pairs (two or more, the first at its start)
 * whose first word is none of libpq's ("dbnme=results password=..."): the
 * length of that word, 0 if the name is none such. */
static size_t mistyped_keywords(const char *name)
{
    const char *s = name + strspn(name, " \t\n");
    size_t k, kk;
    if (keyword_value(name) || !key_eq(s, &k))
        return 0;
    for (const char *p = s + k; *p; p++)
        if (strchr(" \t\n", *p) && key_eq(p + strspn(p, " \t\n"), &kk))
            return k;
    return 0;
}

char *store_name_mistaken(const char *name)
{
    if (mistyped_scheme(name))
        return strdup("not a PostgreSQL connection URI, which begins postgresql:// or postgres://, nor a store "
                      "file's name (a file so named is named ./NAME)");
    size_t k = mistyped_keywords(name);
    if (!k)
        return NULL;
    const char *s = name + strspn(name, " \t\n");
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)(k < sizeof word ? k : sizeof word - 1), s);
    size_t nk = 0;
    while (keywords[nk])
        nk++;
    const char *near = suggest_closest(word, keywords, nk);
    struct strbuf sb = {0};
    sb_printf(&sb, "'%s' is not one of libpq's connection keywords%s%s%s, so this is no server's name, nor a store "
                   "file's (a file so named is named ./NAME)",
              word, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    return sb_failed(&sb) ? (sb_free(&sb), NULL) : sb_detach(&sb);
}

char *store_name_conninfo(const char *name)
{
    char *c = strdup(name);
    for (size_t i = 0; c && i < uri_scheme(name); i++) /* libpq reads only a lower-case scheme */
        c[i] = (char)tolower((unsigned char)c[i]);
    return c;
}

/* A secret found in the name: its text as written. */
struct secrets {
    const char *at[8];
    size_t len[8];
    int n;
};

static void add_secret(struct secrets *sx, const char *at, size_t len)
{
    if (len && sx->n < 8) {
        sx->at[sx->n] = at;
        sx->len[sx->n++] = len;
    }
}

/* A URI, masked into out: the user info's password up to the last @
 * (a password's own @ left unescaped), and every password parameter. */
static int mask_uri(const char *name, size_t sch, struct strbuf *out, struct secrets *sx)
{
    const char *at = strrchr(name + sch, '@');
    const char *colon = at ? memchr(name + sch, ':', (size_t)(at - name - sch)) : NULL;
    const char *rest = name;
    int bad = 0;
    if (colon) {
        bad = sb_append(out, name, (size_t)(colon - name)) || sb_puts(out, ":***");
        add_secret(sx, colon + 1, (size_t)(at - colon - 1));
        rest = at;
    }
    const char *q = strchr(at ? at : name + sch, '?');
    if (!q)
        return bad || sb_puts(out, rest);
    bad = bad || sb_append(out, rest, (size_t)(q - rest));
    for (const char *p = q; *p && !bad;) { /* ?k=v&k=v */
        bad = sb_putc(out, *p++);
        size_t n = strcspn(p, "&"), k = strcspn(p, "=&");
        char key[16] = "";
        size_t kn = 0; /* the key percent-decoded, as libpq decodes it */
        for (size_t i = 0; i < k && kn < sizeof key - 1; i++) {
            if (p[i] == '%' && isxdigit((unsigned char)p[i + 1]) && isxdigit((unsigned char)p[i + 2])) {
                char hex[3] = {p[i + 1], p[i + 2], 0};
                key[kn++] = (char)strtol(hex, NULL, 16);
                i += 2;
            } else
                key[kn++] = p[i];
        }
        if (k < n && secret_key(key, kn)) {
            bad = bad || sb_append(out, p, k + 1) || sb_puts(out, "***");
            add_secret(sx, p + k + 1, n - k - 1);
        } else
            bad = bad || sb_append(out, p, n);
        p += n;
    }
    return bad;
}

/* A keyword=value string, masked into out: the values of password and
 * sslpassword (quoted or not; an unclosed quote masks to the end). */
static int mask_keywords(const char *name, struct strbuf *out, struct secrets *sx)
{
    const char *s = name;
    int bad = 0;
    while (*s && !bad) {
        size_t sp = strspn(s, " \t\n"), k = strcspn(s + sp, "= \t\n");
        const char *key = s + sp, *eq = key + k + strspn(key + k, " \t\n");
        if (*eq != '=') {
            bad = sb_puts(out, s);
            break;
        }
        const char *v = eq + 1 + strspn(eq + 1, " \t\n"), *e = v;
        if (*v == '\'') {
            for (e = v + 1; *e && *e != '\''; e++)
                if (*e == '\\' && e[1])
                    e++;
            e += *e == '\'';
        } else
            e = v + strcspn(v, " \t\n");
        bad = sb_append(out, s, (size_t)(v - s));
        if (secret_key(key, k)) {
            bad = bad || sb_puts(out, "***");
            add_secret(sx, v, (size_t)(e - v));
            if (*v == '\'' && e - v >= 2)
                add_secret(sx, v + 1, (size_t)(e - v - 2));
        } else
            bad = bad || sb_append(out, v, (size_t)(e - v));
        s = e;
    }
    return bad;
}

static char *mask(const char *name, struct secrets *sx)
{
    struct strbuf out = {0};
    memset(sx, 0, sizeof *sx);
    /* a name mistyped as a server's is masked as the one it was meant as */
    size_t sch = uri_scheme(name) ? uri_scheme(name) : mistyped_scheme(name);
    int bad = sch                                                    ? mask_uri(name, sch, &out, sx)
              : keyword_value(name) || mistyped_keywords(name) ? mask_keywords(name, &out, sx)
                                                               : sb_puts(&out, name);
    if (bad) {
        sb_free(&out);
        return NULL;
    }
    return sb_detach(&out);
}

char *store_name_masked(const char *name)
{
    struct secrets sx;
    return mask(name, &sx);
}

/* Whether msg holds piece (n bytes): anywhere when it is three bytes or
 * more, else as a word of its own or a quoted one ("p"). */
static int holds(const char *msg, const char *piece, size_t n)
{
    for (const char *m = msg; *m; m++) {
        if (strncmp(m, piece, n) != 0)
            continue;
        if (n >= 3)
            return 1;
        int before = m == msg || !isalnum((unsigned char)m[-1]);
        int after = !isalnum((unsigned char)m[n]);
        if (before && after)
            return 1;
    }
    return 0;
}

/* Whether msg holds a secret, or a piece of one as libpq splits a name (at
 * @ : / ? & = , and #). */
static int leaks(const char *msg, const struct secrets *sx)
{
    for (int i = 0; i < sx->n; i++) {
        if (holds(msg, sx->at[i], sx->len[i]))
            return 1;
        for (size_t a = 0; a < sx->len[i];) {
            size_t n = 0;
            while (a + n < sx->len[i] && !strchr("@:/?&=,#", sx->at[i][a + n]))
                n++;
            if (n && holds(msg, sx->at[i] + a, n))
                return 1;
            a += n + 1;
        }
    }
    return 0;
}

char *store_name_scrub(const char *name, const char *msg)
{
    struct secrets sx;
    char *shown = mask(name, &sx);
    struct strbuf out = {0};
    int bad = !shown;
    /* The whole name, quoted by libpq, as it may be shown. */
    for (const char *m = msg, *f; !bad && *m; m = f + strlen(name)) {
        if (!*name || !(f = strstr(m, name))) {
            bad = sb_puts(&out, m);
            break;
        }
        bad = sb_append(&out, m, (size_t)(f - m)) || sb_puts(&out, shown);
    }
    free(shown);
    if (bad) {
        sb_free(&out);
        return NULL;
    }
    if (out.buf && leaks(out.buf, &sx)) {
        sb_free(&out);
        return strdup("libpq's message is not shown, as it quotes a part of the password (write @, :, / and ? in a "
                      "password in the URI as %40, %3A, %2F and %3F)");
    }
    return out.buf ? sb_detach(&out) : strdup("");
}
