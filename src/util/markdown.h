#ifndef BENCHDB_MARKDOWN_H
#define BENCHDB_MARKDOWN_H
#include <stddef.h>

#include "util/strbuf.h"

/* ---- text for GitHub-flavoured Markdown ----
 * Data placed in Markdown output (a table cell, or a sentence) renders as
 * the literal text it is, whatever it holds: a benchmark named
 * "<script>", "[l](javascript:x)", "**b**" or "@team" cannot add markup, a
 * link, or a mention (docs/queries.md, "Output formats"). Every character
 * GitHub would read as markup is escaped:
 *   \ ` * [ ] < > ~ & $ |       backslash-escaped (CommonMark: any ASCII
 *                               punctuation may be); | also in a table
 *                               cell, where GFM splits cells before
 *                               anything else, & so that &amp; stays text
 *   _                           backslash-escaped unless between two ASCII
 *                               letters or digits (BM_Sort stays as it is:
 *                               there it can neither open nor close
 *                               emphasis)
 *   @ before a letter or digit  followed by &#8203; (a zero-width space):
 *   # before a digit            GitHub links @name (a mention that
 *                               notifies) and #123 (a cross-reference) in
 *                               the rendered text, where escapes are gone
 *   : before //, . after www    backslash-escaped: GFM's autolinks
 *   a line break                <br> (a cell is one line; in a sentence
 *                               it would start a new block)
 * and in a sentence (MD_TEXT), what would start a block at its beginning:
 * # + - = > and a number's . or ) (a heading, a list, a quote), leading
 * spaces (an indented code block) as &#32;. Then control characters are
 * escaped as for a terminal (text_escape_controls). Not escaped: GitHub's
 * :emoji: shortcodes and commit-hash links, which only decorate. */
enum md_place { MD_CELL, MD_TEXT };
int sb_put_markdown(struct strbuf *sb, const char *s, size_t n, enum md_place where);
/* s escaped so, malloc'd (never NULL: aborts on out of memory). */
char *markdown_escape(const char *s, enum md_place where);

#endif
