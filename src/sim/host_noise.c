/* --host-noise: hosts whose runs vary more (or less) from run to run than
 * the model's defaults, for plans such as Andrew Hume's systems of
 * different timing variability (docs/simulate.md, "Host noise"), or a
 * noisy CI machine among a history's hosts ("Histories"). */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "util/diag.h"
#include "util/xalloc.h"

int sim_host_noise_parse(const char *arg, struct sim_host_noise *h, char **err)
{
    *h = (struct sim_host_noise){0};
    const char *eq = strrchr(arg, '=');
    if (!eq || eq == arg)
        return bd_fail(err, "--host-noise '%s': expected HOSTS=FACTOR", arg);
    char *end = NULL;
    double factor = eq[1] ? strtod(eq + 1, &end) : NAN;
    if (!eq[1] || *end || !(factor >= 0 && factor <= SIM_MAX_HOST_NOISE))
        return bd_fail(err, "--host-noise '%s': FACTOR: expected a number from 0 to %d", arg, SIM_MAX_HOST_NOISE);
    h->hosts = xstrndup(arg, (size_t)(eq - arg));
    h->factor = factor;
    return h->hosts ? 0 : bd_fail(err, "out of memory");
}

void sim_host_noise_free(struct sim_host_noise *h)
{
    free(h->hosts);
    *h = (struct sim_host_noise){0};
}

void sim_host_name(int group, int host, char *buf, size_t size)
{
    snprintf(buf, size, "sim-p%d-vm-%c", 3 + group, 'a' + host);
}

double sim_host_noise_of(const struct sim_config *cfg, const char *name)
{
    double f = 1;
    for (int k = 0; k < cfg->n_host_noise; k++)
        if (fnmatch(cfg->host_noise[k].hosts, name, 0) == 0)
            f *= cfg->host_noise[k].factor;
    return f;
}

double sim_host_noise_factor(const struct sim_config *cfg, int group, int host)
{
    char name[64];
    sim_host_name(group, host, name, sizeof name);
    return sim_host_noise_of(cfg, name);
}

int sim_host_noise_unmatched(const struct sim_config *cfg, const char *const *names, int n)
{
    for (int k = 0; k < cfg->n_host_noise; k++) {
        int hit = 0;
        for (int i = 0; i < n && !hit; i++)
            hit = fnmatch(cfg->host_noise[k].hosts, names[i], 0) == 0;
        if (!hit)
            return k;
    }
    return -1;
}

int sim_host_noise_check(const struct sim_config *cfg, char **err)
{
    char buf[SIM_MAX_GROUPS * SIM_MAX_HOSTS][32];
    const char *names[SIM_MAX_GROUPS * SIM_MAX_HOSTS];
    int n = 0;
    for (int g = 0; g < cfg->groups; g++)
        for (int h = 0; h < cfg->hosts; h++) {
            sim_host_name(g, h, buf[n], sizeof buf[n]);
            names[n] = buf[n];
            n++;
        }
    int k = sim_host_noise_unmatched(cfg, names, n);
    if (k >= 0)
        return bd_fail(err, "--host-noise %s: matches none of the plan's %d hosts", cfg->host_noise[k].hosts, n);
    return 0;
}
