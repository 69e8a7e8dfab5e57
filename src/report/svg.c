/* SVG text helpers, axes, palette and legends (see svg.h). */
#include "report/svg.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/display.h"
#include "util/xalloc.h"

static double ln_(double x) { return log(x); }

const char svg_css[] =
    ".t{font:11px \"DejaVu Sans Mono\",monospace;fill:#222}"
    ".tb{font:bold 11px \"DejaVu Sans Mono\",monospace;fill:#111}"
    ".tt{font:bold 12px \"DejaVu Sans Mono\",monospace;fill:#111}"
    ".tm{font:11px \"DejaVu Sans Mono\",monospace;fill:#555}"
    ".ax{stroke:#444;stroke-width:1;fill:none}"
    ".grid{stroke:#e4e4e4;stroke-width:1}"
    ".band{fill:#e6e6e6}"
    ".ref{stroke:#111;stroke-width:1.3}"
    ".avg{stroke:#111;stroke-width:1.3;stroke-dasharray:6 3}"
    ".chg{stroke:#D55E00;stroke-width:1.2;stroke-dasharray:4 3}"
    ".refl{stroke:#333;stroke-width:1.4;stroke-dasharray:1.5 2.5}"
    ".sep{stroke:#999;stroke-width:1}";

void svg_esc(struct strbuf *sb, const char *s)
{
    if (!s) { /* a text that could not be made: memory ran out */
        sb->failed = 1;
        return;
    }
    for (;;) {
        /* the longest run that needs no escaping, then one character */
        size_t n = 0;
        while (s[n] && ((unsigned char)s[n] >= 0x20 || s[n] == '\n' || s[n] == '\t') && s[n] != '&' && s[n] != '<' &&
               s[n] != '>' && s[n] != '"' && s[n] != '\'')
            n++;
        sb_append(sb, s, n);
        s += n;
        switch (*s) {
        case 0: return;
        case '&': sb_puts(sb, "&amp;"); break;
        case '<': sb_puts(sb, "&lt;"); break;
        case '>': sb_puts(sb, "&gt;"); break;
        case '"': sb_puts(sb, "&quot;"); break;
        case '\'': sb_puts(sb, "&#39;"); break;
        default: sb_putc(sb, ' '); /* a control character: not allowed in XML 1.0 */
        }
        s++;
    }
}

void svg_num(struct strbuf *sb, double x)
{
    /* tenths, rounded half away from zero, without printf (a chart writes many) */
    if (!isfinite(x) || fabs(x) > 1e15)
        x = 0;
    long long t = llround(x * 10);
    char buf[32], *p = buf + sizeof buf;
    int neg = t < 0;
    unsigned long long u = (unsigned long long)(neg ? -t : t);
    if (u % 10) {
        *--p = (char)('0' + u % 10);
        *--p = '.';
    }
    u /= 10;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        *--p = '-';
    sb_append(sb, p, (size_t)(buf + sizeof buf - p));
}

/* Decodes one UTF-8 character at s; returns its length (1 for a stray byte). */
static int utf8_next(const unsigned char *s, unsigned *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;
    unsigned c = n == 1 ? s[0] : s[0] & (0x3f >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *cp = 0xfffd;
            return i;
        }
        c = c << 6 | (s[i] & 0x3f);
    }
    *cp = c;
    return n;
}

static int cp_cols(unsigned c)
{
    if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
        (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
        (c >= 0xffe0 && c <= 0xffe6) || c >= 0x1f000)
        return 2;
    return 1;
}

int text_cols(const char *s)
{
    int cols = 0;
    if (!s)
        return 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c;
        p += utf8_next(p, &c);
        cols += cp_cols(c);
    }
    return cols;
}

char *text_fit(const char *s, int maxcols)
{
    if (!s)
        return NULL;
    if (text_cols(s) <= maxcols)
        return xstrdup(s);
    struct strbuf sb = {0};
    int cols = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c;
        int n = utf8_next(p, &c);
        if (cols + cp_cols(c) > maxcols - 1)
            break;
        sb_append(&sb, p, (size_t)n);
        cols += cp_cols(c);
        p += n;
    }
    sb_puts(&sb, "\xe2\x80\xa6");
    if (sb.failed) {
        sb_free(&sb);
        return NULL; /* svg_text of NULL marks its buffer failed */
    }
    return xsb_detach(&sb);
}

void svg_text(struct strbuf *sb, double x, double y, const char *anchor, const char *cls, const char *text)
{
    sb_puts(sb, "<text x=\"");
    svg_num(sb, x);
    sb_puts(sb, "\" y=\"");
    svg_num(sb, y);
    sb_printf(sb, "\" class=\"%s\"", cls);
    if (anchor && strcmp(anchor, "start") != 0)
        sb_printf(sb, " text-anchor=\"%s\"", anchor);
    sb_putc(sb, '>');
    svg_esc(sb, text);
    sb_puts(sb, "</text>");
}

void axis_fit(struct axis *a, double vmin, double vmax, int log)
{
    a->log = log;
    a->nt = 0;
    if (!isfinite(vmin) || !isfinite(vmax) || vmin > vmax || (log && vmin <= 0))
        vmin = vmax = log ? 1 : 0;
    double l = log ? ln_(vmin) : vmin, h = log ? ln_(vmax) : vmax;
    if (h - l < 1e-12 * (fabs(l) + fabs(h)) || h == l) {
        double d = log ? 0.05 : (l == 0 ? 1 : fabs(l) * 0.1);
        l -= d;
        h += d;
    }
    double pad = (h - l) * 0.04;
    l -= pad;
    h += pad;
    a->lo = log ? exp(l) : l;
    a->hi = log ? exp(h) : h;
}

int axis_ok(const struct axis *a, double v) { return isfinite(v) && (!a->log || v > 0); }

double axis_pos(const struct axis *a, double v)
{
    double t = a->log ? (ln_(v) - ln_(a->lo)) / (ln_(a->hi) - ln_(a->lo)) : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

static double nice_step(double raw)
{
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

void axis_ticks(struct axis *a, int vertical)
{
    double cand[200];
    int n = 0;
    if (!a->log || a->hi / a->lo <= 20) {
        double step = nice_step((a->hi - a->lo) / 6);
        for (double k = ceil(a->lo / step); k * step <= a->hi && n < 200; k++)
            cand[n++] = fabs(k * step) < step * 1e-9 ? 0 : k * step;
    } else {
        static const double m[] = {1, 2, 5};
        for (double d = floor(log10(a->lo)); d <= ceil(log10(a->hi)) && n < 197; d++)
            for (int i = 0; i < 3; i++) {
                double t = m[i] * pow(10, d);
                if (t >= a->lo && t <= a->hi)
                    cand[n++] = t;
            }
    }
    /* Keep ticks left to right (bottom to top) while their labels leave a gap. */
    double last = -1e300;
    a->nt = 0;
    for (int i = 0; i < n && a->nt < 40; i++) {
        char buf[48];
        numfmt_sig(buf, cand[i], REPORT_DIGITS);
        double p = axis_pos(a, cand[i]);
        double half = vertical ? LINE_H / 2 : text_cols(buf) * CHAR_W / 2 + 6;
        double lo = vertical ? -p - half : p - half;
        if (lo < last)
            continue;
        last = (vertical ? -p : p) + half;
        a->ticks[a->nt++] = cand[i];
    }
}

double axis_draw_x(struct strbuf *sb, const struct axis *a, double y, double y_top, const char *label)
{
    return axis_draw_x_labelled(sb, a, y, y_top, label, NULL);
}

double axis_draw_x_labelled(struct strbuf *sb, const struct axis *a, double y, double y_top, const char *label,
                            const char *const *ticks)
{
    for (int i = 0; y_top < y && i < a->nt; i++) {
        double p = axis_pos(a, a->ticks[i]);
        sb_puts(sb, "<line class=\"grid\" x1=\"");
        svg_num(sb, p);
        sb_puts(sb, "\" x2=\"");
        svg_num(sb, p);
        sb_puts(sb, "\" y1=\"");
        svg_num(sb, y_top);
        sb_puts(sb, "\" y2=\"");
        svg_num(sb, y);
        sb_puts(sb, "\"/>");
    }
    sb_puts(sb, "<path class=\"ax\" d=\"M");
    svg_num(sb, a->p0);
    sb_putc(sb, ' ');
    svg_num(sb, y);
    sb_puts(sb, "H");
    svg_num(sb, a->p1);
    for (int i = 0; i < a->nt; i++) {
        sb_puts(sb, "M");
        svg_num(sb, axis_pos(a, a->ticks[i]));
        sb_putc(sb, ' ');
        svg_num(sb, y);
        sb_puts(sb, "v4");
    }
    sb_puts(sb, "\"/>");
    for (int i = 0; i < a->nt; i++) {
        char buf[48];
        numfmt_sig(buf, a->ticks[i], REPORT_DIGITS);
        svg_text(sb, axis_pos(a, a->ticks[i]), y + 16, "middle", "t", ticks ? ticks[i] : buf);
    }
    if (label) {
        char *fit = text_fit(label, (int)((a->p1 - a->p0) / CHAR_W));
        svg_text(sb, (a->p0 + a->p1) / 2, y + 32, "middle", "t", fit);
        free(fit);
    }
    return label ? 38 : 22;
}

void axis_draw_y(struct strbuf *sb, const struct axis *a, double x, double x_right, const char *label)
{
    (void)label;
    for (int i = 0; i < a->nt; i++) {
        double p = axis_pos(a, a->ticks[i]);
        sb_puts(sb, "<line class=\"grid\" x1=\"");
        svg_num(sb, x);
        sb_puts(sb, "\" x2=\"");
        svg_num(sb, x_right);
        sb_puts(sb, "\" y1=\"");
        svg_num(sb, p);
        sb_puts(sb, "\" y2=\"");
        svg_num(sb, p);
        sb_puts(sb, "\"/>");
    }
    sb_puts(sb, "<path class=\"ax\" d=\"M");
    svg_num(sb, x);
    sb_putc(sb, ' ');
    svg_num(sb, a->p0);
    sb_puts(sb, "V");
    svg_num(sb, a->p1);
    for (int i = 0; i < a->nt; i++) {
        sb_puts(sb, "M");
        svg_num(sb, x);
        sb_putc(sb, ' ');
        svg_num(sb, axis_pos(a, a->ticks[i]));
        sb_puts(sb, "h-4");
    }
    sb_puts(sb, "\"/>");
    for (int i = 0; i < a->nt; i++) {
        char buf[48];
        numfmt_sig(buf, a->ticks[i], REPORT_DIGITS);
        svg_text(sb, x - 6, axis_pos(a, a->ticks[i]) + 4, "end", "t", buf);
    }
}

/* Okabe & Ito's palette, reordered so that the first two (the usual two
 * classes) differ in lightness too: dark blue and light orange. */
static const char *palette[PALETTE_N] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                         "#56B4E9", "#D55E00", "#000000", "#F0E442"};

const char *palette_colour(int k) { return palette[((k % PALETTE_N) + PALETTE_N) % PALETTE_N]; }

void svg_shape(struct strbuf *sb, enum shape s, double cx, double cy, double r, const char *colour, int filled)
{
    const char *fill = filled ? colour : "#fff";
    switch (s) {
    case SHAPE_CROSS:
        sb_puts(sb, "<path d=\"M");
        svg_num(sb, cx - r * 0.75);
        sb_putc(sb, ' ');
        svg_num(sb, cy - r * 0.75);
        sb_puts(sb, "l");
        svg_num(sb, r * 1.5);
        sb_putc(sb, ' ');
        svg_num(sb, r * 1.5);
        sb_puts(sb, "m0 ");
        svg_num(sb, -r * 1.5);
        sb_puts(sb, "l");
        svg_num(sb, -r * 1.5);
        sb_putc(sb, ' ');
        svg_num(sb, r * 1.5);
        sb_printf(sb, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"/>", colour);
        sb_puts(sb, "<circle cx=\"");
        svg_num(sb, cx);
        sb_puts(sb, "\" cy=\"");
        svg_num(sb, cy);
        sb_puts(sb, "\" r=\"");
        svg_num(sb, r * 1.15);
        sb_printf(sb, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\"/>", colour);
        return;
    case SHAPE_SQUARE:
        sb_puts(sb, "<rect x=\"");
        svg_num(sb, cx - r * 0.9);
        sb_puts(sb, "\" y=\"");
        svg_num(sb, cy - r * 0.9);
        sb_puts(sb, "\" width=\"");
        svg_num(sb, r * 1.8);
        sb_puts(sb, "\" height=\"");
        svg_num(sb, r * 1.8);
        sb_putc(sb, '"');
        break;
    case SHAPE_TRIANGLE:
    case SHAPE_TRIANGLE_DOWN:
    case SHAPE_DIAMOND: {
        double k = s == SHAPE_TRIANGLE_DOWN ? -1 : 1;
        sb_puts(sb, "<path d=\"M");
        if (s == SHAPE_DIAMOND) {
            svg_num(sb, cx);
            sb_putc(sb, ' ');
            svg_num(sb, cy - r * 1.2);
            sb_puts(sb, "L");
            svg_num(sb, cx + r * 1.1);
            sb_putc(sb, ' ');
            svg_num(sb, cy);
            sb_puts(sb, "L");
            svg_num(sb, cx);
            sb_putc(sb, ' ');
            svg_num(sb, cy + r * 1.2);
            sb_puts(sb, "L");
            svg_num(sb, cx - r * 1.1);
            sb_putc(sb, ' ');
            svg_num(sb, cy);
        } else {
            svg_num(sb, cx);
            sb_putc(sb, ' ');
            svg_num(sb, cy - k * r * 1.15);
            sb_puts(sb, "L");
            svg_num(sb, cx + r * 1.1);
            sb_putc(sb, ' ');
            svg_num(sb, cy + k * r * 0.8);
            sb_puts(sb, "L");
            svg_num(sb, cx - r * 1.1);
            sb_putc(sb, ' ');
            svg_num(sb, cy + k * r * 0.8);
        }
        sb_puts(sb, "Z\"");
        break;
    }
    default:
        sb_puts(sb, "<circle cx=\"");
        svg_num(sb, cx);
        sb_puts(sb, "\" cy=\"");
        svg_num(sb, cy);
        sb_puts(sb, "\" r=\"");
        svg_num(sb, r);
        sb_putc(sb, '"');
    }
    sb_printf(sb, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\"/>", fill, colour);
}

void legend_add(struct legend *l, enum legend_kind kind, enum shape shape, const char *colour, int filled,
                const char *text)
{
    struct legend_entry *grown = xreallocarray(l->v, (size_t)(l->n + 1), sizeof *l->v);
    char *copy = xstrdup(text ? text : "");
    if (grown)
        l->v = grown;
    if (!grown || !copy) { /* an entry less; the panel's buffer says memory ran out */
        free(copy);
        l->failed = 1;
        return;
    }
    l->v[l->n++] = (struct legend_entry){kind, shape, colour, filled, copy};
}

void legend_free(struct legend *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i].text);
    free(l->v);
    memset(l, 0, sizeof *l);
}

double legend_draw(struct strbuf *sb, const struct legend *l, double x0, double y, double width)
{
    if (l->failed)
        sb->failed = 1;
    if (!l->n)
        return 0;
    double x = x0, rows = 1;
    for (int i = 0; i < l->n; i++) {
        const struct legend_entry *e = &l->v[i];
        double sw = e->kind == LEG_TEXT ? 0 : 20;
        int maxcols = (int)((width - sw) / CHAR_W);
        char *fit = text_fit(e->text, maxcols);
        double w = sw + text_cols(fit) * CHAR_W;
        if (x > x0 && x + w > x0 + width) {
            x = x0;
            y += 18;
            rows++;
        }
        double cy = y + 8;
        switch (e->kind) {
        case LEG_SHAPE: svg_shape(sb, e->shape, x + 7, cy, 4.5, e->colour, e->filled); break;
        case LEG_BAND:
            sb_puts(sb, "<rect class=\"band\" x=\"");
            svg_num(sb, x);
            sb_puts(sb, "\" y=\"");
            svg_num(sb, cy - 6);
            sb_puts(sb, "\" width=\"14\" height=\"12\" stroke=\"#aaa\"/>");
            break;
        case LEG_LINE:
        case LEG_DASH:
        case LEG_DOT:
            sb_printf(sb, "<line class=\"%s\" x1=\"",
                      e->kind == LEG_LINE ? "ref" : e->kind == LEG_DOT ? "refl" : e->colour ? "chg" : "avg");
            svg_num(sb, x + 7);
            sb_puts(sb, "\" x2=\"");
            svg_num(sb, x + 7);
            sb_puts(sb, "\" y1=\"");
            svg_num(sb, cy - 7);
            sb_puts(sb, "\" y2=\"");
            svg_num(sb, cy + 7);
            sb_puts(sb, "\"/>");
            break;
        case LEG_TEXT: break;
        }
        svg_text(sb, x + sw, y + 12, "start", "t", fit);
        free(fit);
        x += w + 18;
    }
    return rows * 18 + 4;
}

double svg_wrapped(struct strbuf *sb, double x, double y, const char *cls, const char *text, int maxcols)
{
    double h = 0;
    if (!text) {
        sb->failed = 1;
        return 0;
    }
    const char *p = text;
    while (*p) {
        /* The longest prefix of whole words within maxcols (or a cut word). */
        const char *end = p, *cut = NULL;
        struct strbuf line = {0};
        while (*end) {
            const char *w = end;
            while (*w == ' ')
                w++;
            const char *we = w + strcspn(w, " ");
            struct strbuf t = {0};
            sb_append(&t, xsb_text(&line), line.len);
            sb_append(&t, end, (size_t)(we - end));
            int fits = text_cols(xsb_text(&t)) <= maxcols;
            sb_free(&t);
            if (!fits)
                break;
            sb_append(&line, end, (size_t)(we - end));
            end = we;
            cut = end;
        }
        if (!cut) { /* one word longer than a line */
            char *fit = text_fit(p, maxcols);
            svg_text(sb, x, y + h, "start", cls, fit);
            free(fit);
            p += strcspn(p, " ");
        } else {
            svg_text(sb, x, y + h, "start", cls, xsb_text(&line) + strspn(xsb_text(&line), " "));
            p = cut;
        }
        sb_free(&line);
        while (*p == ' ')
            p++;
        h += LINE_H;
    }
    return h;
}

void svg_band(struct strbuf *sb, double x0, double x1, double y0, double y1)
{
    sb_puts(sb, "<rect class=\"band\" x=\"");
    svg_num(sb, x0 < x1 ? x0 : x1);
    sb_puts(sb, "\" y=\"");
    svg_num(sb, y0);
    sb_puts(sb, "\" width=\"");
    svg_num(sb, x0 < x1 ? x1 - x0 : x0 - x1);
    sb_puts(sb, "\" height=\"");
    svg_num(sb, y1 - y0);
    sb_puts(sb, "\"/>");
}

void svg_vline(struct strbuf *sb, const char *cls, double x, double y0, double y1)
{
    sb_printf(sb, "<line class=\"%s\" x1=\"", cls);
    svg_num(sb, x);
    sb_puts(sb, "\" x2=\"");
    svg_num(sb, x);
    sb_puts(sb, "\" y1=\"");
    svg_num(sb, y0);
    sb_puts(sb, "\" y2=\"");
    svg_num(sb, y1);
    sb_puts(sb, "\"/>");
}
