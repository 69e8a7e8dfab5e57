/* A small XML pull reader (xml.h). */
#include "ingest/decoders/catch2/xml.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void xml_init(struct xml_reader *r, const char *p, size_t n)
{
    memset(r, 0, sizeof *r);
    r->p = p;
    r->end = p + n;
    r->line = 1;
}

void xml_free(struct xml_reader *r)
{
    sb_free(&r->buf);
}

const char *xml_name(const struct xml_reader *r)
{
    return r->buf.buf + r->name;
}

const char *xml_attr(const struct xml_reader *r, const char *name)
{
    for (size_t i = 0; i < r->n_attrs; i++)
        if (strcmp(r->buf.buf + r->attr_name[i], name) == 0)
            return r->buf.buf + r->attr_value[i];
    return NULL;
}

static enum xml_event fail(struct xml_reader *r, const char *what)
{
    snprintf(r->error, sizeof r->error, "%s", what);
    return XML_ERROR;
}

/* Moves past the first occurrence of s, counting lines; 0 when absent. */
static int skip_past(struct xml_reader *r, const char *s)
{
    size_t n = strlen(s);
    for (; r->p + n <= r->end; r->p++) {
        if (memcmp(r->p, s, n) == 0) {
            r->p += n;
            return 1;
        }
        r->line += *r->p == '\n';
    }
    r->p = r->end;
    return 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void skip_space(struct xml_reader *r)
{
    for (; r->p < r->end && is_space(*r->p); r->p++)
        r->line += *r->p == '\n';
}

static int name_char(unsigned char c)
{
    return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':';
}

/* A name into buf (NUL-terminated); its offset, or SIZE_MAX. */
static size_t read_name(struct xml_reader *r)
{
    const char *s = r->p;
    while (r->p < r->end && name_char((unsigned char)*r->p))
        r->p++;
    if (r->p == s)
        return SIZE_MAX;
    size_t at = r->buf.len;
    return sb_append(&r->buf, s, (size_t)(r->p - s)) || sb_putc(&r->buf, 0) ? SIZE_MAX - 1 : at;
}

static int put_utf8(struct strbuf *b, unsigned long cp)
{
    char u[4];
    int n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return sb_append(b, u, (size_t)n);
}

/* An entity or character reference at s ('&' ... ';') appended to buf;
 * its length, or 0 when it is not one XML has. */
static size_t entity(struct strbuf *b, const char *s, const char *end, int *oom)
{
    static const struct { const char *name; char c; } named[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t n = strlen(named[i].name);
        if ((size_t)(end - s) >= n && memcmp(s, named[i].name, n) == 0) {
            *oom = sb_putc(b, named[i].c) != 0;
            return n;
        }
    }
    if (end - s < 4 || s[1] != '#')
        return 0;
    int hex = s[2] == 'x';
    unsigned long cp = 0;
    const char *q = s + 2 + hex;
    for (; q < end && *q != ';' && q - s < 12; q++) {
        int d = *q >= '0' && *q <= '9' ? *q - '0' : hex && *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
              : hex && *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;
        if (d < 0)
            return 0;
        cp = cp * (hex ? 16 : 10) + (unsigned long)d;
    }
    if (q >= end || *q != ';' || q == s + 2 + hex || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    *oom = put_utf8(b, cp) != 0;
    return (size_t)(q - s) + 1;
}

/* A quoted attribute value, decoded into buf; its offset, or SIZE_MAX
 * with the error set. */
static size_t read_value(struct xml_reader *r)
{
    if (r->p >= r->end || (*r->p != '"' && *r->p != '\'')) {
        fail(r, "expected a quoted attribute value");
        return SIZE_MAX;
    }
    char q = *r->p++;
    size_t at = r->buf.len;
    while (r->p < r->end && *r->p != q) {
        int oom = 0;
        if (*r->p == '<') {
            fail(r, "'<' in an attribute value");
            return SIZE_MAX;
        }
        if (*r->p == '&') {
            size_t n = entity(&r->buf, r->p, r->end, &oom);
            if (!n) {
                fail(r, "an '&' that is not an entity XML has");
                return SIZE_MAX;
            }
            r->p += n;
        } else {
            r->line += *r->p == '\n';
            oom = sb_putc(&r->buf, *r->p++) != 0;
        }
        if (oom) {
            fail(r, "out of memory");
            return SIZE_MAX;
        }
    }
    if (r->p >= r->end) {
        fail(r, "an attribute value runs to the end of the file");
        return SIZE_MAX;
    }
    r->p++;
    if (sb_putc(&r->buf, 0)) {
        fail(r, "out of memory");
        return SIZE_MAX;
    }
    return at;
}

static enum xml_event start_tag(struct xml_reader *r)
{
    size_t nm = read_name(r);
    if (nm >= SIZE_MAX - 1)
        return fail(r, nm == SIZE_MAX ? "expected an element name after '<'" : "out of memory");
    r->name = nm;
    for (;;) {
        skip_space(r);
        if (r->p >= r->end)
            return fail(r, "the file ends inside a tag");
        if (*r->p == '>') {
            r->p++;
            return XML_START;
        }
        if (*r->p == '/' && r->p + 1 < r->end && r->p[1] == '>') {
            r->p += 2;
            r->empty_pending = 1;
            return XML_START;
        }
        if (r->n_attrs == XML_MAX_ATTRS)
            return fail(r, "more than 32 attributes on an element");
        size_t an = read_name(r);
        if (an >= SIZE_MAX - 1)
            return fail(r, an == SIZE_MAX ? "expected an attribute name, '>' or '/>'" : "out of memory");
        skip_space(r);
        if (r->p >= r->end || *r->p != '=')
            return fail(r, "expected '=' after an attribute name");
        r->p++;
        skip_space(r);
        size_t av = read_value(r);
        if (av == SIZE_MAX)
            return XML_ERROR;
        r->attr_name[r->n_attrs] = an;
        r->attr_value[r->n_attrs++] = av;
    }
}

enum xml_event xml_next(struct xml_reader *r)
{
    if (r->empty_pending) {
        r->empty_pending = 0;
        return XML_END; /* the name of the <x/> just returned stays */
    }
    sb_reset(&r->buf);
    r->n_attrs = 0;
    for (;;) {
        while (r->p < r->end && *r->p != '<') /* text: ignored */
            r->line += *r->p++ == '\n';
        if (r->p >= r->end)
            return XML_EOF;
        size_t left = (size_t)(r->end - r->p);
        if (left >= 4 && memcmp(r->p, "<!--", 4) == 0) {
            if (!skip_past(r, "-->"))
                return fail(r, "a comment runs to the end of the file");
        } else if (left >= 9 && memcmp(r->p, "<![CDATA[", 9) == 0) {
            if (!skip_past(r, "]]>"))
                return fail(r, "a CDATA section runs to the end of the file");
        } else if (left >= 2 && (r->p[1] == '?' || r->p[1] == '!')) {
            if (!skip_past(r, r->p[1] == '?' ? "?>" : ">"))
                return fail(r, "a declaration runs to the end of the file");
        } else if (left >= 2 && r->p[1] == '/') {
            r->p += 2;
            size_t nm = read_name(r);
            if (nm >= SIZE_MAX - 1)
                return fail(r, nm == SIZE_MAX ? "expected an element name after '</'" : "out of memory");
            r->name = nm;
            skip_space(r);
            if (r->p >= r->end || *r->p != '>')
                return fail(r, "expected '>' closing an end tag");
            r->p++;
            return XML_END;
        } else {
            r->p++;
            return start_tag(r);
        }
    }
}
