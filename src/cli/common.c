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
        /* SQLite's messages name the file; a server's are named here, its
         * password masked. */
        if (db_is_server_name(cli->db_path))
            bd_error("%s: %s", cli_store_name(cli), err);
        else
            bd_error("%s", err);
        free(err);
        return -1;
    }
    return 0;
}

int cli_connect_limited(struct cli *cli, enum store_mode mode, double timeout, struct store_deadline *dl,
                        struct db **db)
{
    if (cli_connect_store(cli, mode, db))
        return -1;
    if (db_sqlite(*db))
        store_set_timeout(db_sqlite(*db), dl, timeout);
    else if (db_pg_set_timeout(*db, (long long)(timeout * 1000 + 0.5)) != SQLITE_OK) {
        bd_error("cannot set the time limit: %s", db_errmsg(*db));
        db_close(*db);
        *db = NULL;
        return -1;
    }
    return 0;
}

int cli_deadline_passed(struct db *db, const struct store_deadline *dl)
{
    return dl->fired || (db && !db_sqlite(db) && db_errcode(db) == SQLITE_INTERRUPT);
}

const char *cli_store_name(const struct cli *cli)
{
    static char shown[1024];
    const char *name = cli->db_path;
    const char *scheme = db_is_server_name(name) ? strstr(name, "://") : NULL;
    const char *at = scheme ? strchr(scheme + 3, '@') : NULL;
    const char *colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
    if (!colon || strlen(name) + 4 > sizeof shown)
        return name;
    snprintf(shown, sizeof shown, "%.*s:***%s", (int)(colon - name), name, at);
    return shown;
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
