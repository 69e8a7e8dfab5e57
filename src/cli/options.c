/* The option table (cli.h): parsing a command line by a command's spec,
 * printing its help, and the parsers the commands share. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

/* ---- the shared parsers ---- */

int cli_opt_flag(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o, (void)arg, (void)err;
    *(int *)dst = 1;
    return 0;
}

int cli_opt_string(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o, (void)err;
    *(const char **)dst = arg;
    return 0;
}

int cli_opt_int(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    char *end;
    errno = 0;
    long long v = strtoll(arg, &end, 10);
    int ranged = o->lo < o->hi;
    if (!*arg || *end || errno || (ranged && (v < o->lo || v > o->hi)) || v < -2147483647LL || v > 2147483647LL) {
        if (ranged && o->hi == 2147483647LL)
            return bd_fail(err, "expected an integer >= %lld", o->lo);
        if (ranged)
            return bd_fail(err, "expected an integer from %lld to %lld", o->lo, o->hi);
        return bd_fail(err, "expected an integer");
    }
    *(int *)dst = (int)v;
    return 0;
}

int cli_opt_real(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    char *end;
    double v = strtod(arg, &end);
    if (!*arg || *end || !isfinite(v))
        return bd_fail(err, "expected a number");
    *(double *)dst = v;
    return 0;
}

int cli_opt_seconds(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    double v;
    if (cli_opt_real(o, arg, &v, err) || v <= 0 || v > STORE_TIMEOUT_MAX)
        return bd_fail(err, "expected a number of seconds > 0, at most %g (a week)", STORE_TIMEOUT_MAX);
    *(double *)dst = v;
    return 0;
}

int cli_opt_bytes(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    char *end;
    errno = 0;
    unsigned long long v = *arg >= '0' && *arg <= '9' ? strtoull(arg, &end, 10) : 0;
    int shift = 0;
    if (v) {
        const char *units = "KMGT", *u = *end ? strchr(units, *end & ~0x20) : NULL;
        if (u && *u) {
            shift = 10 * (int)(u - units + 1);
            end++;
        }
    }
    if (!v || errno || *end || v > (SIZE_MAX >> shift))
        return bd_fail(err, "expected a number of bytes >= 1, with an optional suffix K, M, G or T (256M)");
    *(size_t *)dst = (size_t)v << shift;
    return 0;
}

int cli_opt_format(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    if (out_format_parse(arg, dst))
        return bd_fail(err, "expected one of %s", OUT_FORMAT_NAMES);
    return 0;
}

int cli_opt_param(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    int rc = params_add(dst, arg);
    if (rc == -2) {
        const char *eq = strchr(arg, '=');
        int n = (int)(eq - arg);
        return bd_fail(err, "%.*s is given twice (give each parameter once)", n, arg);
    }
    return rc ? bd_fail(err, "expected NAME=VALUE") : 0;
}

int cli_opt_queries(const struct cli_opt *o, const char *arg, void *dst, char **err)
{
    (void)o;
    return query_path_add(dst, arg) ? bd_fail(err, "out of memory") : 0;
}

int cli_output_ready(const char *cmd, struct out_opts *o)
{
    if (o->envelope && o->format != OUT_JSON)
        return bd_usage_error(cmd, "%s: --envelope goes with --format json", cmd);
    o->max_width = out_terminal_width(1);
    return EXIT_OK;
}

int cli_usage_error_see(const char *see, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = bd_vstrdupf(fmt, ap);
    va_end(ap);
    bd_error("%s (see 'benchdb %s')", msg, see);
    free(msg);
    return EXIT_USAGE;
}

/* ---- parsing ---- */

static int count_opts(const struct cli_opt *opts)
{
    int n = 0;
    for (const struct cli_opt *o = opts; o && (o->name || o->help); o++)
        n++;
    return n;
}

/* How a "--name[=value]" argument matches the long options: the index of
 * the option it names (exactly, or as the prefix of one only), -1 when it
 * names none, -2 when it is the prefix of several. */
static int long_match(const struct option *lo, int nlo, const char *word)
{
    size_t len = strcspn(word + 2, "=");
    int found = -1, prefixes = 0;
    for (int i = 0; i < nlo; i++) {
        if (strncmp(lo[i].name, word + 2, len) != 0)
            continue;
        if (strlen(lo[i].name) == len)
            return i;
        prefixes++;
        found = i;
    }
    return prefixes > 1 ? -2 : found;
}

/* The usage error for a long option getopt_long refused as unknown or
 * ambiguous: the first such argument (getopt_long permutes argv and
 * does not say which it was). */
static int bad_long_option(const struct cli_spec *spec, const struct option *lo, int nlo, int argc, char **argv)
{
    const char *cmd = spec->name;
    const char *word = NULL;
    int m = -1;
    for (int i = 1; i < argc && !word; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strncmp(argv[i], "--", 2) == 0 && (m = long_match(lo, nlo, argv[i])) < 0)
            word = argv[i];
    }
    if (!word)
        return bd_usage_error(cmd, "%s: bad option", cmd);
    size_t len = strcspn(word + 2, "=");
    char *name = xstrndup(word + 2, len);
    const char **names = xcalloc((size_t)nlo + 1, sizeof *names);
    struct strbuf sb = {0};
    for (int i = 0; i < nlo; i++) {
        names[i] = lo[i].name;
        if (m == -2 && strncmp(lo[i].name, name, len) == 0)
            sb_printf(&sb, "%s--%s", sb.len ? ", " : "", lo[i].name);
    }
    const char *near = suggest_closest(name, names, (size_t)nlo);
    int rc;
    if (m == -2)
        rc = bd_usage_error(cmd, "%s: option '--%s' is ambiguous: %s", cmd, name, xsb_text(&sb));
    else if (near)
        rc = bd_usage_error(cmd, "%s: unknown option '--%s'; did you mean '--%s'?", cmd, name, near);
    else
        rc = bd_usage_error(cmd, "%s: unknown option '--%s'", cmd, name);
    sb_free(&sb);
    free(names);
    free(name);
    return rc;
}

/* The usage error for what getopt_long returned as c ('?' or ':'). */
static int bad_option(const struct cli_spec *spec, const struct option *lo, int nlo, int c, int argc, char **argv)
{
    const char *cmd = spec->name;
    if (optopt >= 256) /* a long option: its value is missing, or a flag got one */
        return bd_usage_error(cmd, c == ':' ? "%s: option '--%s' needs a value" : "%s: option '--%s' takes no value",
                              cmd, lo[optopt - 256].name);
    if (optopt && c == ':')
        return bd_usage_error(cmd, "%s: option '-%c' needs a value", cmd, optopt);
    if (optopt)
        return bd_usage_error(cmd, "%s: unknown option '-%c'", cmd, optopt);
    return bad_long_option(spec, lo, nlo, argc, argv);
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *args, int *first)
{
    int n = count_opts(spec->opts);
    struct option *lo = xcalloc((size_t)n + 1, sizeof *lo);
    const struct cli_opt **by_val = xcalloc((size_t)n + 1, sizeof *by_val);
    char *shortopts = xcalloc(2 * (size_t)n + 2, 1);
    int nlo = 0, rc = EXIT_USAGE;
    if (!lo || !by_val || !shortopts) {
        bd_error("out of memory");
        goto out;
    }
    strcpy(shortopts, ":"); /* report a missing value as ':' */
    for (int i = 0; i < n; i++) {
        const struct cli_opt *o = &spec->opts[i];
        if (!o->name)
            continue;
        by_val[nlo] = o;
        lo[nlo] = (struct option){o->name, o->metavar ? required_argument : no_argument, NULL, 256 + nlo};
        nlo++;
        if (o->short_name) {
            size_t k = strlen(shortopts);
            shortopts[k] = o->short_name;
            if (o->metavar)
                shortopts[k + 1] = ':';
        }
    }
    optind = 0; /* glibc: 0 re-initialises getopt's internal state */
    opterr = 0;
    for (;;) {
        int c = getopt_long(argc, argv, shortopts, lo, NULL);
        if (c == -1)
            break;
        if (c == '?' || c == ':') {
            bad_option(spec, lo, nlo, c, argc, argv);
            goto out;
        }
        const struct cli_opt *o = NULL;
        if (c >= 256)
            o = by_val[c - 256];
        for (int i = 0; !o && i < nlo; i++)
            if (by_val[i]->short_name == c)
                o = by_val[i];
        /* o is found: getopt_long returns only what shortopts and lo hold,
         * both built from these options, or '?' and ':' (above); gcc
         * -fanalyzer cannot see that. */
        char *err = NULL;
        int prc = o->parse(o, optarg, (char *)args + o->offset, &err);
        if (prc == -2)
            bd_usage_error(spec->name, "%s: %s", spec->name, err);
        else if (prc)
            bd_usage_error(spec->name, "%s: --%s '%s': %s", spec->name, o->name, optarg ? optarg : "", err);
        free(err);
        if (prc)
            goto out;
    }
    int nargs = argc - optind;
    if (nargs < spec->min_args)
        bd_usage_error(spec->name, "%s: %s", spec->name, spec->missing ? spec->missing : "missing an argument");
    else if (spec->max_args >= 0 && nargs > spec->max_args)
        bd_usage_error(spec->name, "%s: unexpected argument '%s'", spec->name, argv[optind + spec->max_args]);
    else
        rc = EXIT_OK;
    *first = optind;
out:
    free(lo);
    free(by_val);
    free(shortopts);
    return rc;
}

/* ---- help ---- */

#define HELP_COLUMN 27

static void print_help_text(FILE *out, const char *help, size_t used)
{
    for (const char *line = help; line; used = 0) {
        const char *nl = strchr(line, '\n');
        for (size_t i = used; i < HELP_COLUMN; i++)
            fputc(' ', out);
        fprintf(out, "%.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
        line = nl ? nl + 1 : NULL;
    }
}

static void print_option(FILE *out, const struct cli_opt *o)
{
    char left[96];
    if (o->short_name)
        snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name, o->name, o->metavar ? " " : "",
                 o->metavar ? o->metavar : "");
    else
        snprintf(left, sizeof left, "      --%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    fputs(left, out);
    size_t used = strlen(left);
    if (used > HELP_COLUMN - 2) {
        fputc('\n', out);
        used = 0;
    }
    print_help_text(out, o->help, used);
}

void cli_print_help(const struct cli_spec *spec, FILE *out)
{
    for (int i = 0; spec->synopsis && spec->synopsis[i]; i++)
        fprintf(out, "%s benchdb %s%s\n", i ? "      " : "usage:", spec->store ? "[--db FILE] " : "",
                spec->synopsis[i]);
    if (spec->about)
        fprintf(out, "\n%s", spec->about);
    int n = count_opts(spec->opts);
    fputs(n && !spec->opts[0].name ? "\n" : "\nOptions:\n", out);
    for (int i = 0; i < n; i++) {
        const struct cli_opt *o = &spec->opts[i];
        if (o->name)
            print_option(out, o);
        else
            fprintf(out, "%s\n", o->help);
    }
    print_option(out, &(const struct cli_opt){.name = "help", .short_name = 'h', .help = "print this help"});
    if (spec->more)
        fprintf(out, "\n%s", spec->more);
}
