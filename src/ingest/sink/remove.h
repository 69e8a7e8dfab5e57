#ifndef BENCHDB_INGEST_SINK_REMOVE_H
#define BENCHDB_INGEST_SINK_REMOVE_H
/* Removing what ingest stored: an archive (its runs with all their rows,
 * what it added to other runs, its members and stored bytes), a run, or a
 * plan's runs. Archives left with nothing are removed with them, a plan
 * left without runs too; plans, hosts, variants and cells other rows still
 * name stay, and so do recorded evaluations (whose data fingerprint then
 * no longer matches the store). One transaction; the derived tables follow
 * through the schema's triggers and cascades, so 'benchdb check' stays
 * clean. */
#include <sqlite3.h>

#include "store/db.h"

struct removal_target {
    enum { REMOVE_ARCHIVE, REMOVE_RUN, REMOVE_PLAN } kind;
    long long archive;
    const char *plan, *run;
};

struct removal {
    long long archives, runs, series, samples, gates, events, members, chunks, plans;
};

/* Removes the target (dry_run: counts and changes nothing). 0, 1 when the
 * target does not exist (*err says so), -1 with *err on a store error. */
int remove_stored(struct db *db, const struct removal_target *t, int dry_run, struct removal *out, char **err);

#endif
