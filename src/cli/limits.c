/* Limits on analysis (cli.h): the time and result size a command running
 * SQL for a person may spend, their defaults, and the message when one
 * stops it. */
#include <stdint.h>
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

static size_t temp_max(const struct cli_limits *given)
{
    return given->max_temp_bytes > 0 ? given->max_temp_bytes : CLI_TEMP_BYTES_DEFAULT;
}

/* The result held lives in SQLite's memory too: the default stays above it. */
static size_t memory_max(const struct cli_limits *given)
{
    if (given->max_memory > 0)
        return given->max_memory;
    size_t result = given->max_result_bytes > 0 ? given->max_result_bytes : ROWSET_MAX_BYTES_DEFAULT;
    return result <= CLI_MEMORY_DEFAULT / 2 ? CLI_MEMORY_DEFAULT : result > SIZE_MAX / 2 ? SIZE_MAX : result * 2;
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
    store_query_limits((long long)temp_max(given), (long long)memory_max(given));
    return EXIT_OK;
}

/* The disk or memory limit that stopped a command (store_query_limit_passed's
 * over), for cli_limit_error. */
static void resource_error(const char *who, const struct cli_limits *given, int over)
{
    int temp = over == STORE_OVER_TEMP;
    const char *option = temp ? "--max-temp-bytes" : "--max-memory";
    size_t set = temp ? given->max_temp_bytes : given->max_memory;
    char size[32], *arg = bytes_arg(set);
    size_text(size, temp ? temp_max(given) : memory_max(given));
    char *source = set ? bd_strdupf("%s %s", option, arg) : bd_strdupf("the default %s", option);
    bd_error("%s: the query %s more than %s of %s (%s; raise it with %s SIZE)", who, temp ? "wrote" : "needed",
             size, temp ? "temporary files" : "memory", source, option);
    free(arg);
    free(source);
}

void cli_limit_error(const char *who, const struct cli_limits *given, double timeout,
                     const struct rowset_limits *rows, int which)
{
    char *what, *source;
    const char *option, *metavar;
    double env;
    int over = which == 0 ? store_query_limit_passed() : 0;
    if (over) {
        resource_error(who, given, over);
        return;
    }
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

const char *cli_limits_given(const struct cli_limits *given)
{
    return given->timeout > 0            ? "--timeout"
           : given->max_rows > 0         ? "--max-rows"
           : given->max_result_bytes > 0 ? "--max-result-bytes"
           : given->max_temp_bytes > 0   ? "--max-temp-bytes"
           : given->max_memory > 0       ? "--max-memory"
                                         : NULL;
}

void cli_limits_warn_unapplied(const char *cmd, const struct cli_limits *given, const struct db *db)
{
    if (store_query_limits_apply(db) || !(given->max_temp_bytes || given->max_memory))
        return;
    int both = given->max_temp_bytes && given->max_memory;
    bd_warning("%s: %s%s%s bound%s nothing on PostgreSQL: the server's temp_file_limit and work_mem do "
               "(docs/postgresql.md, \"Disk and memory\")",
               cmd, given->max_temp_bytes ? "--max-temp-bytes" : "", both ? " and " : "",
               given->max_memory ? "--max-memory" : "", both ? "" : "s");
}
