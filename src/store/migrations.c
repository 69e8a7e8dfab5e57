/* Schema migrations on either engine (store.h, "migrations"): the one
 * runner. Versions are the same on both engines: version v is the schema
 * migrations/NNNN_name.sql (NNNN = v) gives on SQLite, and
 * schema/schema.sql and schema/postgresql.sql, made from one description
 * (schema/benchdb.schema), are the latest. SQLite applies the files in
 * turn, as every released store went through them. On PostgreSQL
 * migrations/postgresql/NNNN_baseline.sql makes a new store at version
 * NNNN in one step (recording versions 1 to NNNN, as SQLite's store has
 * them), and each later file, named as SQLite's, one version more
 * (docs/schema.md, "Changing the schema"). A new SQLite store is made at
 * the latest version in one step too, from what replaying the files at
 * build time left (embedded_sqlite_schema), recorded as the replay records
 * it; a store at an older version is taken through the files
 * (docs/schema.md, "How a new store is made").
 *
 * Each step runs in one transaction (Fossil's way: take the lock, re-read
 * the version, apply, record, commit), so that processes migrating at once
 * apply each step once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/sqlite_bookkeeping.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/embedded.h"
#include "util/sha256.h"
#include "util/text.h"

/* One step: the text that takes a store from version from to version to. */
struct step {
    int from, to;
    const char *file, *text;
};

static int version_of(const char *file) { return atoi(file); }

/* PostgreSQL's baseline, or NULL when the binary has none. */
static const struct embedded_file *pg_baseline(void)
{
    for (size_t i = 0; i < embedded_pg_migrations_count; i++)
        if (strstr(embedded_pg_migrations[i].name, "_baseline.sql"))
            return &embedded_pg_migrations[i];
    return NULL;
}

static const struct embedded_file *pg_file(int v)
{
    for (size_t i = 0; i < embedded_pg_migrations_count; i++)
        if (version_of(embedded_pg_migrations[i].name) == v)
            return &embedded_pg_migrations[i];
    return NULL;
}

int store_migrations_known(struct db *db)
{
    if (db->engine == DB_SQLITE)
        return migrations_count();
    int last = 0;
    for (size_t i = 0; i < embedded_pg_migrations_count; i++)
        if (version_of(embedded_pg_migrations[i].name) > last)
            last = version_of(embedded_pg_migrations[i].name);
    return last;
}

const char *store_migration_text(struct db *db, int v)
{
    if (db->engine == DB_SQLITE)
        return migration_text(v);
    const struct embedded_file *base = pg_baseline(), *f = pg_file(v);
    if (v < 1 || v > store_migrations_known(db) || !base)
        return NULL;
    return v <= version_of(base->name) ? base->data : f ? f->data : NULL;
}

int store_version(struct db *db, char **err)
{
    return db->engine == DB_POSTGRESQL ? store_pg_version(db, err) : store_schema_version(db->lite, err);
}

/* The step from version at towards target, or -1 with *err: on SQLite,
 * from an empty store to the latest version, the whole way in one unless
 * replay asks for the files one by one. */
static int next_step(struct db *db, int at, int target, int replay, struct step *s, char **err)
{
    if (db->engine == DB_SQLITE && !replay && at == 0 && target == migrations_count() &&
        embedded_sqlite_schema_version == target) {
        *s = (struct step){0, target, embedded_sqlite_schema.name, embedded_sqlite_schema.data};
        return 0;
    }
    const struct embedded_file *base = db->engine == DB_SQLITE ? NULL : pg_baseline();
    if (base && at == 0) {
        *s = (struct step){0, version_of(base->name), base->name, base->data};
        return 0;
    }
    if (base && at < version_of(base->name))
        return bd_fail(err, "the store's schema is at version %d, before the first a store on PostgreSQL has (%d): "
                            "make a new store and ingest its archives again",
                       at, version_of(base->name));
    const char *text = store_migration_text(db, at + 1);
    if (!text)
        return bd_fail(err, "no migration from version %d", at);
    *s = (struct step){at, at + 1, store_migration_name(at + 1), text};
    return 0;
}

/* Records versions s->from + 1 to s->to, each with its name and the
 * SHA-256 of its migration's text (PostgreSQL's baseline for the versions
 * it makes; on SQLite each file's, as replaying them records it, when one
 * step made them all) and the time. SQLITE_OK or an error code. */
static int record(struct db *db, const struct step *s)
{
    char hex[65], when[TIME_TEXT_MAX];
    time_now_rfc3339(when, 1);
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, "INSERT INTO schema_migration(version, name, sha256, applied_at) VALUES (?, ?, ?, ?)", &st);
    for (int v = s->from + 1; rc == SQLITE_OK && v <= s->to; v++) {
        const char *name = store_migration_name(v), *text = store_migration_text(db, v);
        if (!text)
            text = s->text;
        sha256_hex_of(text, strlen(text), hex);
        if ((rc = db_bind_int(st, 1, v)) == SQLITE_OK && (rc = db_bind_text(st, 2, name ? name : s->file, -1)) == SQLITE_OK &&
            (rc = db_bind_text(st, 3, hex, -1)) == SQLITE_OK && (rc = db_bind_text(st, 4, when, -1)) == SQLITE_OK)
            rc = db_step(st);
        rc = rc == SQLITE_DONE ? db_reset(st) : rc == SQLITE_OK ? SQLITE_ERROR : rc;
    }
    db_finalize(st);
    return rc;
}

static const char sqlite_bookkeeping[] = STORE_SQLITE_BOOKKEEPING;
static const char pg_bookkeeping[] = "CREATE TABLE IF NOT EXISTS schema_migration (version BIGINT PRIMARY KEY, "
                                     "name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL); "
                                     "LOCK TABLE schema_migration IN EXCLUSIVE MODE";

/* The step s in one transaction: the version the store is at after it
 * (another process may have taken it further meanwhile), or -1 with
 * *err. */
static int apply_step(struct db *db, const struct step *s, char **err)
{
    int pg = db->engine == DB_POSTGRESQL;
    char *msg = NULL;
    if (db_exec(db, pg ? "BEGIN; " STORE_PG_SCHEMA_LOCK : "BEGIN EXCLUSIVE", &msg) != SQLITE_OK) {
        bd_fail(err, "cannot lock the store to migrate: %s", msg ? msg : db_errmsg(db));
        free(msg);
        db_exec(db, "ROLLBACK", NULL);
        return -1;
    }
    char *why = NULL;
    int v = store_version(db, &why);
    if (v < 0 || v != s->from) {
        db_exec(db, v >= s->to ? "COMMIT" : "ROLLBACK", NULL);
        if (v < 0 && pg)
            bd_fail(err, "migration %s failed: %s", s->file, why ? why : "out of memory");
        else if (v < 0) /* SQLite's says what the file is (store_schema_state) */
            bd_fail(err, "%s", why ? why : "out of memory");
        else if (v < s->to)
            bd_fail(err, "migration %04d cannot apply: the store is at version %d", s->to, v);
        free(why);
        return v >= s->to ? v : -1;
    }
    int rc = db_exec(db, pg ? pg_bookkeeping : sqlite_bookkeeping, &msg);
    if (rc == SQLITE_OK)
        rc = db_exec(db, s->text, &msg);
    const char *failed = "migration %s failed: %s";
    if (rc == SQLITE_OK && (rc = record(db, s)) != SQLITE_OK)
        failed = "cannot record migration %s: %s";
    if (rc == SQLITE_OK && (rc = db_exec(db, "COMMIT", &msg)) != SQLITE_OK)
        failed = "cannot commit migration %s: %s";
    if (rc != SQLITE_OK) {
        bd_fail(err, failed, s->file, msg ? msg : db_errmsg(db));
        free(msg);
        db_exec(db, "ROLLBACK", NULL);
        return -1;
    }
    return s->to;
}

static int apply_migrations(struct db *db, int target, int replay, char **err)
{
    int known = store_migrations_known(db);
    if (target < 0 || target > known)
        target = known;
    int at = store_version(db, err);
    if (at < 0)
        return -1;
    if (at > known)
        return bd_fail(err, "the store's schema is at version %d, newer than this benchdb knows (up to %d)", at, known);
    /* A role that may not apply them is told who may, before any step
     * fails on the first table it does not own. */
    if (at < target && store_may_migrate(db, at, target, err))
        return -1;
    int from = at;
    while (at < target) {
        struct step s = {0, 0, NULL, NULL};
        if (next_step(db, at, target, replay, &s, err))
            return -1;
        if (s.to > target)
            return bd_fail(err, "version %d cannot be reached on this engine (its first step goes to %d)", target, s.to);
        if ((at = apply_step(db, &s, err)) < 0)
            return -1;
    }
    return at - from;
}

int store_apply_migrations(struct db *db, int target, char **err) { return apply_migrations(db, target, 0, err); }

int store_replay_migrations(struct db *db, int target, char **err) { return apply_migrations(db, target, 1, err); }
