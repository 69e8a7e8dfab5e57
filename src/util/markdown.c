/* Data as literal text in GitHub-flavoured Markdown (util/markdown.h). */
#include "util/markdown.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

static int ascii_alnum(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* How many bytes at the start of s would open a block if a line began
 * with them, the last of which is escaped: "#", "-", "1." -> 1, 1, 2; 0
 * when none would. */
static size_t block_opener(const char *s, size_t n)
{
    if (n && strchr("#+-=>", s[0]))
        return 1;
    size_t d = 0;
    while (d < n && d < 10 && s[d] >= '0' && s[d] <= '9')
        d++;
    return d && d < n && (s[d] == '.' || s[d] == ')') ? d + 1 : 0;
}

/* The Markdown text of s, before control characters are escaped. */
static int put_markup_escaped(struct strbuf *sb, const char *s, size_t n, enum md_place where)
{
    int rc = 0;
    size_t i = 0, opener = where == MD_TEXT ? block_opener(s, n) : 0;
    for (; where == MD_TEXT && i < n && s[i] == ' '; i++)
        rc |= sb_puts(sb, "&#32;");
    for (; i < n && !rc; i++) {
        unsigned char c = (unsigned char)s[i];
        int prev = i ? (unsigned char)s[i - 1] : 0, next = i + 1 < n ? (unsigned char)s[i + 1] : 0;
        int escape = strchr("\\`*[]<>~&$|", c) != NULL && c != 0;
        if (c == '_')
            escape = !(ascii_alnum(prev) && ascii_alnum(next));
        else if (c == ':')
            escape = i + 2 < n && s[i + 1] == '/' && s[i + 2] == '/';
        else if (c == '.')
            escape = i >= 3 && (s[i - 3] | 0x20) == 'w' && (s[i - 2] | 0x20) == 'w' && (s[i - 1] | 0x20) == 'w';
        if (i + 1 == opener)
            escape = 1;
        if (c == '\n') {
            rc |= sb_puts(sb, "<br>");
            continue;
        }
        if (escape)
            rc |= sb_putc(sb, '\\');
        rc |= sb_putc(sb, (char)c);
        if ((c == '@' && ascii_alnum(next)) || (c == '#' && next >= '0' && next <= '9'))
            rc |= sb_puts(sb, "&#8203;");
    }
    return rc ? -1 : 0;
}

int sb_put_markdown(struct strbuf *sb, const char *s, size_t n, enum md_place where)
{
    struct strbuf md = {0};
    int rc = put_markup_escaped(&md, s, n, where);
    if (!rc)
        rc = sb_put_escaped_controls(sb, md.buf ? md.buf : "", md.len);
    sb_free(&md);
    return rc;
}

char *markdown_escape(const char *s, enum md_place where)
{
    struct strbuf sb = {0};
    if (sb_put_markdown(&sb, s, strlen(s), where)) {
        fputs("error: out of memory\n", stderr);
        abort();
    }
    return sb_detach(&sb);
}
