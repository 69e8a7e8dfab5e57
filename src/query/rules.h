#ifndef BENCHDB_RULES_H
#define BENCHDB_RULES_H
#include <sqlite3.h>

#include "store/db.h"

#include "output/output.h"
#include "query/saved.h"
#include "util/text.h"

/* Pre-registration of rules (table `rule`, docs/queries.md). */

/* Whether s is an RFC 3339 date-time SQLite can read:
 * YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM). 1 yes, 0 no, -1 SQL error. */
int rule_time_valid(struct db *db, const char *s, char **err);

struct rule_registration {
    long long id;
    char sha256[65];
    char registered_at[TIME_TEXT_MAX]; /* now, or when registered before */
    int existed;                       /* already registered: nothing changed */
};
/* Registers q's text (published and ref may be NULL); a text registered
 * before is left as it was (out->existed). Returns 0, or -1 with *err. */
int rule_register(struct db *db, const struct saved_query *q, const char *published, const char *ref,
                  struct rule_registration *out, char **err);

/* Every registered rule: id, name, sha256 (short), registered_at,
 * published_at, ref. Returns 0, or -1 with *err. */
int rule_list(struct db *db, struct rowset *rs, char **err);

/* The registered rule with this text's SHA-256: 1 found (id, when it
 * was fixed: published, else registered, and its ref or ""), 0 none,
 * -1 with *err on an SQL error. */
int rule_find(struct db *db, const char *sha256, long long *id, char fixed[TIME_TEXT_MAX], char ref[256], char **err);

/* The registered rule named name with the highest id (the latest): 1
 * found (its id, SHA-256, when it was fixed, and in *count how many rules
 * of that name are registered), 0 none, -1 with *err. */
int rule_find_named(struct db *db, const char *name, long long *id, char sha256[65], char fixed[TIME_TEXT_MAX],
                    long long *count, char **err);

/* A registered rule's exact text and name (malloc'd), by id: 1 found, 0
 * none, -1 with *err. */
int rule_text(struct db *db, long long id, char **text, char **name, char **err);

/* Every registered rule's id and name, by id (malloc'd arrays of *n; the
 * names malloc'd; the caller frees them whatever the result): for a
 * message naming what there is. 0, or -1 with *err. */
int rule_names(struct db *db, long long **ids, char ***names, size_t *n, char **err);

/* When rule id was registered here (registered_at): 1 found, 0 none, -1
 * with *err. */
int rule_registered_at(struct db *db, long long id, char out[TIME_TEXT_MAX], char **err);

/* The earliest start time of a plan's runs: 1 found, 0 none recorded,
 * -1 with *err. */
int plan_first_start(struct db *db, const char *plan, char out[TIME_TEXT_MAX], char **err);
/* Whether time a precedes time b (julianday): 1, 0, or -1 with *err. */
int time_precedes(struct db *db, const char *a, const char *b, char **err);

#endif
