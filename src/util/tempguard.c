/* Temporary files removed when a signal ends the process (tempguard.h). */
#include "util/tempguard.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIG_GUARDED (sizeof guarded_signals / sizeof guarded_signals[0])

/* The one state a signal handler can reach: it is given no context. The
 * list is changed with the signals blocked, so the handler never sees it
 * half-changed. */
static char *paths[TEMPGUARD_MAX];
static volatile sig_atomic_t npaths;
static struct sigaction saved[NSIG_GUARDED];

static void on_signal(int sig)
{
    for (sig_atomic_t i = 0; i < npaths; i++)
        unlink(paths[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig); /* delivered on return: the process ends by the signal */
}

static void block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NSIG_GUARDED; i++)
        sigaddset(&set, guarded_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

int tempguard_add(const char *path)
{
    char *copy = strdup(path);
    if (!copy || npaths == TEMPGUARD_MAX) {
        free(copy);
        return -1;
    }
    sigset_t old;
    block(&old);
    if (npaths == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < NSIG_GUARDED; i++)
            sigaddset(&sa.sa_mask, guarded_signals[i]);
        /* A signal the process ignores (SIGINT of a job the shell ran in
         * the background, nohup's SIGHUP) stays ignored. */
        for (size_t i = 0; i < NSIG_GUARDED; i++)
            if (sigaction(guarded_signals[i], NULL, &saved[i]) == 0 && saved[i].sa_handler != SIG_IGN)
                sigaction(guarded_signals[i], &sa, NULL);
    }
    paths[npaths] = copy;
    npaths = npaths + 1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return 0;
}

void tempguard_remove(const char *path)
{
    sigset_t old;
    block(&old);
    for (sig_atomic_t i = 0; i < npaths; i++)
        if (strcmp(paths[i], path) == 0) {
            free(paths[i]);
            paths[i] = paths[npaths - 1];
            npaths = npaths - 1;
            if (npaths == 0)
                for (size_t k = 0; k < NSIG_GUARDED; k++)
                    if (saved[k].sa_handler != SIG_IGN)
                        sigaction(guarded_signals[k], &saved[k], NULL);
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}
