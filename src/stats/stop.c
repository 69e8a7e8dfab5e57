/* Stopping a long computation (stats/stop.h). */
#include "stats/stop.h"

static _Thread_local stats_stop_fn stop_fn;
static _Thread_local void *stop_arg;

void stats_set_stop(stats_stop_fn fn, void *arg)
{
    stop_fn = fn;
    stop_arg = fn ? arg : NULL;
}

stats_stop_fn stats_stop_hook(void **arg)
{
    if (arg)
        *arg = stop_arg;
    return stop_fn;
}

int stats_stop_ask(struct stats_stop_poll *p)
{
    p->work = 0;
    if (stop_fn && stop_fn(stop_arg))
        p->stopped = 1;
    return p->stopped;
}
