/* Helpers shared by the commands: a line for a person, opening the store,
 * finding a saved query. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "util/text.h"

void cli_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = bd_vstrdupf(fmt, ap);
    va_end(ap);
    char *shown = text_escape_controls(msg);
    printf("%s\n", shown);
    free(shown);
    free(msg);
}

static int output_failure_said;

void cli_output_failed(const char *who)
{
    /* A write that failed while the result was printed left its errno:
     * nothing since has touched another file. */
    int before = errno;
    errno = 0;
    int why = fflush(stdout) != 0 ? errno : before;
    if (why)
        bd_error("%s: cannot write the output: %s", who, strerror(why));
    else
        bd_error("%s: cannot write the output", who);
    output_failure_said = 1;
}

int cli_output_failure_said(void)
{
    return output_failure_said;
}

int cli_open_store(struct cli *cli, enum store_mode mode, sqlite3 **db)
{
    char *err = NULL;
    if (store_open(cli->db_path, mode, db, &err) != 0) {
        bd_error("%s", err);
        free(err);
        return -1;
    }
    return 0;
}

int cli_connect_store(struct cli *cli, enum store_mode mode, struct db **db)
{
    char *err = NULL;
    if (store_connect(cli->db_path, mode, db, &err) != 0) {
        bd_error("%s", err); /* naming the store (store_connect) */
        free(err);
        return -1;
    }
    return 0;
}

int cli_connect_limited(struct cli *cli, enum store_mode mode, const char *cmd, const struct cli_limits *given,
                        double timeout, struct store_deadline *dl, struct db **db)
{
    if (cli_connect_store(cli, mode, db))
        return -1;
    cli_limits_warn_unapplied(cmd, given, *db);
    if (store_deadline_start(*db, dl, timeout) != SQLITE_OK) {
        bd_error("cannot set the time limit: %s", db_errmsg(*db));
        db_close(*db);
        *db = NULL;
        return -1;
    }
    return 0;
}

int cli_deadline_passed(struct db *db, const struct store_deadline *dl)
{
    return store_deadline_passed(db, dl) || store_query_limit_passed();
}

const char *cli_store_name(const struct cli *cli)
{
    /* Made once: the name does not change while a command runs. */
    static char *shown;
    static const char *of;
    if (!shown || of != cli->db_path) {
        free(shown);
        shown = store_name_masked(cli->db_path);
        of = cli->db_path;
    }
    return shown ? shown : "(the store)";
}

struct saved_query *cli_find_query(const char *cmd, const struct query_path *qp, const char *name, int *rc)
{
    char *err = NULL;
    int unknown = 0;
    struct saved_query *q = saved_query_find(qp, name, &unknown, &err);
    if (!q && unknown)
        *rc = cli_usage_error_see("queries", "%s: %s", cmd, err);
    else if (!q) {
        bd_error("%s: %s", cmd, err);
        *rc = EXIT_FAIL;
    }
    free(err);
    return q;
}
