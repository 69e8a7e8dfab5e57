#ifndef BENCHDB_STATS_STOP_H
#define BENCHDB_STATS_STOP_H
/* Stopping a long computation. A call into a statistics function is one
 * step of a statement, which SQLite's progress handler and PostgreSQL's
 * statement_timeout cannot interrupt midway; the computations whose cost
 * grows faster than their input (change_points: O(W^2) a split) therefore
 * ask, every STATS_STOP_WORK units of work, whether to stop. Whoever runs
 * them under a limit sets the question for its thread: benchdb's deadline
 * (store_set_timeout), the server's interrupts (src/pg, which answers by
 * raising the server's error itself). Without one, nothing stops. */
#include <stddef.h>

typedef int (*stats_stop_fn)(void *arg);

/* Sets (fn NULL: clears) the question for the calling thread. */
void stats_set_stop(stats_stop_fn fn, void *arg);
/* The hook and its argument set on this thread (NULL when none). */
stats_stop_fn stats_stop_hook(void **arg);

/* Work between two questions: about a millisecond of the inner loops. */
#define STATS_STOP_WORK ((size_t)1 << 20)

/* A computation's counter: stats_stop_poll(&p, units) adds units of work
 * done and, past STATS_STOP_WORK since the last, asks (stats_stop_ask);
 * 1 once the answer was to stop (and from then on), else 0. Inline: the
 * inner loops call it once a row of their work. */
struct stats_stop_poll {
    size_t work;
    int stopped;
};
int stats_stop_ask(struct stats_stop_poll *p);

static inline int stats_stop_poll(struct stats_stop_poll *p, size_t units)
{
    if (p->stopped)
        return 1;
    p->work += units;
    return p->work >= STATS_STOP_WORK ? stats_stop_ask(p) : 0;
}

#endif
