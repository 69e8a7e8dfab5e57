/* Limits on analysis (cli.h): the time and result size a command running
 * SQL for a person may spend, their defaults, and the message when one
 * stops it. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/text.h"

/* A size as --max-result-bytes takes it: 256M, 1536K, 1000. */
static char *bytes_arg(size_t n)
{
    static const char units[] = "\0KMGT";
    int u = 0;
    while (u < 4 && n >= 1024 && n % 1024 == 0)
        n /= 1024, u++;
    return u ? bd_strdupf("%zu%c", n, units[u]) : bd_strdupf("%zu", n);
}

/* $BENCHDB_TIMEOUT when set: 1, with *seconds; 0 when unset; -1 when bad. */
static int env_timeout(double *seconds)
{
    const char *env = getenv("BENCHDB_TIMEOUT");
    if (!env || !*env)
        return 0;
    char *end;
    double v = strtod(env, &end);
    if (*end || !(v > 0 && v <= STORE_TIMEOUT_MAX))
        return -1;
    *seconds = v;
    return 1;
}

int cli_limits_resolve(const char *cmd, const struct cli_limits *given, double *timeout, struct rowset_limits *rows)
{
    double env = 0;
    int from_env = env_timeout(&env);
    if (from_env < 0)
        return bd_usage_error(cmd, "%s: $BENCHDB_TIMEOUT '%s': expected a number of seconds > 0, at most %g (a week)",
                              cmd, getenv("BENCHDB_TIMEOUT"), STORE_TIMEOUT_MAX);
    *timeout = given->timeout > 0 ? given->timeout : from_env ? env : CLI_TIMEOUT_DEFAULT;
    rows->max_rows = given->max_rows > 0 ? (size_t)given->max_rows : ROWSET_MAX_ROWS_DEFAULT;
    rows->max_bytes = given->max_result_bytes > 0 ? given->max_result_bytes : ROWSET_MAX_BYTES_DEFAULT;
    return EXIT_OK;
}

void cli_limit_error(const char *who, const struct cli_limits *given, double timeout,
                     const struct rowset_limits *rows, int which)
{
    char *what, *source;
    const char *option, *metavar;
    double env;
    if (which == 0) {
        what = bd_strdupf("stopped after %g s", timeout);
        option = "--timeout", metavar = "SECONDS";
        source = given->timeout > 0          ? bd_strdupf("--timeout %g", given->timeout)
                 : env_timeout(&env) == 1    ? bd_strdupf("$BENCHDB_TIMEOUT=%g", env)
                                             : bd_strdupf("the default time limit");
    } else {
        what = rowset_over_text(which, rows);
        int over_rows = which == ROWSET_OVER_ROWS;
        option = over_rows ? "--max-rows" : "--max-result-bytes", metavar = over_rows ? "N" : "SIZE";
        int set = over_rows ? given->max_rows > 0 : given->max_result_bytes > 0;
        char *arg = over_rows ? bd_strdupf("%d", given->max_rows) : bytes_arg(given->max_result_bytes);
        source = set ? bd_strdupf("%s %s", option, arg) : bd_strdupf("the default %s", option);
        free(arg);
    }
    bd_error("%s: %s (%s; raise it with %s %s)", who, what, source, option, metavar);
    free(what);
    free(source);
}
